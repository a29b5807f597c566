/**
 * The knowledge indexer's worker, seen from the server's thread: one worker thread, one job at a
 * time (read, chunk, embed offline and write one document; remove documents; store vectors an
 * endpoint made; extract a document's text for the Inspector). Reading and chunking a document has
 * a time budget (past it the worker is terminated and the document skipped with its reason) and a
 * heap limit. The server keeps answering whatever a document holds, and never writes the store itself.
 */
import { Worker } from "node:worker_threads";
import type { VectorSpace } from "./knowledge-store.js";

type Job<K extends string, T> = { id: number; kind: K } & T;

export type WorkerJob =
  | Job<"extract", { dataRoot: string; path: string; maxBytes: number }>
  /** `offline`: compute the offline embedder's vectors too, in this space. */
  | Job<"index", { dbFile: string; dataRoot: string; path: string; size: number; mtimeMs: number; maxBytes: number; offline: VectorSpace | null }>
  | Job<"fail", { dbFile: string; path: string; size: number; mtimeMs: number; reason: string }>
  | Job<"remove", { dbFile: string; paths: string[] }>
  | Job<"prepare", { dbFile: string; textAnalysis: number; space: VectorSpace }>
  | Job<"clear", { dbFile: string; textAnalysis: number }>
  | Job<"vectors", { dbFile: string; space: VectorSpace; rows: Array<{ id: number; vector: Float32Array }> }>
  | Job<"embed-offline", { dbFile: string; space: VectorSpace; batch: number }>
  /** Closes the worker's connections (a terminated thread would leave them open in the process). */
  | Job<"close", object>;

export type WorkerReply =
  | {
      id: number;
      ok: true;
      chunks?: number;
      cleared?: boolean;
      stored?: number;
      text?: string;
      pages?: Array<{ page: number; line: number }> | null;
    }
  /** `recorded`: the document's failure is in the store (an unreadable document), not a failure to write. */
  | { id: number; ok: false; reason: string; recorded?: boolean };

type JobInput = WorkerJob extends infer J ? (J extends WorkerJob ? Omit<J, "id"> : never) : never;

/** The worker's module: its compiled .js beside this one, or the .ts source under tsx and vitest. */
function startWorker(): Worker {
  const fromSource = import.meta.url.endsWith(".ts");
  const url = new URL(fromSource ? "./index-worker-thread.ts" : "./index-worker-thread.js", import.meta.url);
  const resourceLimits = { maxOldGenerationSizeMb: 1536 };
  if (!fromSource) return new Worker(url, { resourceLimits });
  // Worker threads do not inherit tsx's loader on Node 20: register it, then load the source.
  const boot = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(boot, { eval: true, resourceLimits });
}

export class IndexWorker {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private nextId = 1;
  private current: { id: number; settle: (result: WorkerReply) => void } | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  /** `budgetMs`: how long reading a document (an index or extract job) may take. */
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
    worker.on("message", (message: WorkerReply | { ready: true }) => {
      if ("id" in message && this.current?.id === message.id) this.current.settle(message);
    });
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.ready = null;
      this.current?.settle({ id: this.current.id, ok: false, reason: why });
    };
    worker.on("error", (err) => lost(`the indexer failed (${err.message})`));
    worker.on("exit", (code) => lost(`the indexer stopped (exit code ${code})`));
    return this.ready;
  }

  /** Runs one job after those before it; never throws (a failure is a reply with its reason). */
  run(job: JobInput): Promise<WorkerReply> {
    const next = this.queue.then(() => this.runNow(job));
    this.queue = next.catch(() => {});
    return next;
  }

  private async runNow(job: JobInput): Promise<WorkerReply> {
    const id = this.nextId++;
    if (this.closed) return { id, ok: false, reason: "the knowledge base closed" };
    try {
      if (!this.worker) await this.spawn();
      else await this.ready;
    } catch (err) {
      this.worker = null;
      return { id, ok: false, reason: `the indexer could not start (${(err as Error).message})` };
    }
    const worker = this.worker;
    if (this.closed || !worker) return { id, ok: false, reason: "the knowledge base closed" };
    const budgeted = job.kind === "index" || job.kind === "extract";
    return new Promise<WorkerReply>((resolve) => {
      const timer = budgeted
        ? setTimeout(() => {
            settle({ id, ok: false, reason: `reading and chunking took over ${Math.round(this.budgetMs / 1000)} s; skipped` });
            this.worker = null;
            this.ready = null;
            void worker.terminate();
          }, this.budgetMs)
        : null;
      const settle = (result: WorkerReply) => {
        if (this.current?.id !== id) return;
        this.current = null;
        if (timer) clearTimeout(timer);
        resolve(result);
      };
      this.current = { id, settle };
      worker.postMessage({ ...job, id } as WorkerJob);
    });
  }

  /** Lets the job under way finish (briefly), closes the worker's database connections, and stops it. */
  async close(): Promise<void> {
    if (this.worker && !this.closed) {
      const closing = this.run({ kind: "close" });
      await Promise.race([closing, new Promise((r) => setTimeout(r, 2000))]);
    }
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.current?.settle({ id: this.current.id, ok: false, reason: "the knowledge base closed" });
    await worker?.terminate();
  }
}
