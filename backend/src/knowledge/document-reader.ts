/**
 * Reads knowledge documents off the server's thread: one worker thread, one document at a time,
 * each within a time budget (past it the worker is terminated and the document skipped with its
 * reason) and a heap limit. The server keeps answering whatever a document holds.
 */
import { Worker } from "node:worker_threads";
import type { Chunk } from "./chunk-text.js";

export interface DocumentJob {
  id: number;
  dataRoot: string;
  /** Data-root-relative. */
  path: string;
  maxBytes: number;
  /** Compute offline-embedder vectors in the worker too. */
  offlineVectors: boolean;
  /** Only extract the text (for the Inspector), no chunks. */
  extract?: boolean;
}

/** `terms`: the chunk's BM25 terms joined by spaces (one string crosses threads far faster than thousands). */
export type ReadChunk = Chunk & { terms: string };

export type DocumentResult =
  | { id: number; ok: true; chunks: ReadChunk[]; vectors: Float32Array | null; dims: number }
  | { id: number; ok: false; reason: string };

export type ExtractResult = { id: number; ok: true; text: string; pages: Array<{ page: number; line: number }> | null } | { id: number; ok: false; reason: string };

/** The worker's module: its compiled .js beside this one, or the .ts source under tsx and vitest. */
function startWorker(): Worker {
  const fromSource = import.meta.url.endsWith(".ts");
  const url = new URL(fromSource ? "./document-worker.ts" : "./document-worker.js", import.meta.url);
  const resourceLimits = { maxOldGenerationSizeMb: 1536 };
  if (!fromSource) return new Worker(url, { resourceLimits });
  // Worker threads do not inherit tsx's loader on Node 20: register it, then load the source.
  const boot = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(boot, { eval: true, resourceLimits });
}

export class DocumentReader {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private nextId = 1;
  private current: { id: number; settle: (result: DocumentResult | ExtractResult) => void } | null = null;
  private closed = false;

  constructor(private readonly budgetMs: number) {}

  private spawn(): Promise<void> {
    const worker = startWorker();
    this.worker = worker;
    worker.unref();
    // Settles however the boot ends: ready, failed, or terminated meanwhile (close() during a slow start).
    this.ready = new Promise<void>((resolve, reject) => {
      const failed = (err: Error) => reject(err);
      const exited = (code: number) => reject(new Error(`it stopped while starting (exit code ${code})`));
      worker.once("error", failed);
      worker.once("exit", exited);
      worker.once("message", (message: unknown) => {
        if (!(message as { ready?: boolean }).ready) return;
        worker.off("error", failed);
        worker.off("exit", exited);
        resolve();
      });
    });
    worker.on("message", (message: DocumentResult | ExtractResult | { ready: true }) => {
      if ("id" in message && this.current?.id === message.id) this.current.settle(message);
    });
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.ready = null;
      this.current?.settle({ id: this.current.id, ok: false, reason: why });
    };
    worker.on("error", (err) => lost(`the reader failed (${err.message})`));
    worker.on("exit", (code) => lost(`the reader stopped (exit code ${code})`));
    return this.ready;
  }

  /** Reads and chunks one document; never throws (a failure is a result with its reason). */
  read(job: Omit<DocumentJob, "id" | "extract">): Promise<DocumentResult> {
    return this.run({ ...job, extract: false }) as Promise<DocumentResult>;
  }

  /** Extracts one document's text; never throws. */
  extract(job: Omit<DocumentJob, "id" | "extract" | "offlineVectors">): Promise<ExtractResult> {
    return this.run({ ...job, offlineVectors: false, extract: true }) as Promise<ExtractResult>;
  }

  /** One job at a time: callers that may overlap use their own reader. */
  private async run(job: Omit<DocumentJob, "id">): Promise<DocumentResult | ExtractResult> {
    const id = this.nextId++;
    if (this.closed) return { id, ok: false, reason: "the knowledge base closed" };
    try {
      if (!this.worker) await this.spawn();
      else await this.ready;
    } catch (err) {
      this.worker = null;
      return { id, ok: false, reason: `the reader could not start (${(err as Error).message})` };
    }
    const worker = this.worker;
    if (this.closed || !worker) return { id, ok: false, reason: "the knowledge base closed" };
    return new Promise<DocumentResult | ExtractResult>((resolve) => {
      const timer = setTimeout(() => {
        settle({ id, ok: false, reason: `reading and chunking took over ${Math.round(this.budgetMs / 1000)} s; skipped` });
        this.worker = null;
        this.ready = null;
        void worker.terminate();
      }, this.budgetMs);
      const settle = (result: DocumentResult | ExtractResult) => {
        if (this.current?.id !== id) return;
        this.current = null;
        clearTimeout(timer);
        resolve(result);
      };
      this.current = { id, settle };
      worker.postMessage({ ...job, id } satisfies DocumentJob);

    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.current?.settle({ id: this.current.id, ok: false, reason: "the knowledge base closed" });
    await worker?.terminate();
  }
}
