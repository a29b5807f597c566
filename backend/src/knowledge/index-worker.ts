/**
 * The knowledge indexer's worker, seen from the server's thread: one worker thread, one job at a
 * time (read, chunk, embed offline and write one document; remove documents; store vectors an
 * endpoint made; extract a document's text for the Inspector). Reading and chunking a document has
 * a time budget (past it the worker is terminated and the document skipped with its reason) and a
 * heap limit. The server keeps answering whatever a document holds, and never writes the store itself.
 */
import { JobWorker } from "../workers/job-worker.js";
import type { VectorSpace } from "./index-store.js";
import type { StoreLocation } from "./store-location.js";

type Job<K extends string, T> = { kind: K } & T;

export type WorkerJob =
  | Job<"extract", { dataRoot: string; path: string; maxBytes: number }>
  /** `offline`: compute the offline embedder's vectors too, in this space. */
  | Job<"index", { store: StoreLocation; dataRoot: string; path: string; size: number; mtimeMs: number; maxBytes: number; offline: VectorSpace | null }>
  | Job<"fail", { store: StoreLocation; path: string; size: number; mtimeMs: number; reason: string }>
  | Job<"remove", { store: StoreLocation; paths: string[] }>
  | Job<"prepare", { store: StoreLocation; textAnalysis: number; space: VectorSpace }>
  | Job<"clear", { store: StoreLocation; textAnalysis: number }>
  | Job<"vectors", { store: StoreLocation; space: VectorSpace; rows: Array<{ id: number; vector: Float32Array }> }>
  | Job<"embed-offline", { store: StoreLocation; space: VectorSpace; batch: number }>
  /** Closes the worker's connections (a terminated thread would leave them open in the process). */
  | Job<"close", object>;

export type WorkerReply =
  | {
      ok: true;
      chunks?: number;
      cleared?: boolean;
      stored?: number;
      text?: string;
      pages?: Array<{ page: number; line: number }> | null;
    }
  /**
   * `recorded`: the document's failure is in the store (an unreadable document), not a failure to write.
   * `storeDown`: the server store failed (unreachable, the lease passed on): nothing was written, try again later.
   */
  | { ok: false; reason: string; recorded?: boolean; storeDown?: boolean };

export class IndexWorker {
  private readonly jobs = new JobWorker<WorkerJob, WorkerReply>({
    module: "./index-worker-thread",
    base: import.meta.url,
    name: "the knowledge base",
    resourceLimits: { maxOldGenerationSizeMb: 1536 },
  });

  /** `budgetMs`: how long reading a document (an index or extract job) may take. */
  constructor(private readonly budgetMs: number) {}

  /** Runs one job after those before it; never throws (a failure is a reply with its reason). */
  async run(job: WorkerJob): Promise<WorkerReply> {
    const budgeted = job.kind === "index" || job.kind === "extract";
    const outcome = await this.jobs.run(job, budgeted ? this.budgetMs : null);
    if (outcome.ok) return outcome.reply;
    return { ok: false, reason: outcome.timedOut ? `reading and chunking took over ${Math.round(this.budgetMs / 1000)} s; skipped` : outcome.reason };
  }

  /** Lets the job under way finish (briefly), closes the worker's database connections, and stops it. */
  close(): Promise<void> {
    return this.jobs.close({ kind: "close" });
  }
}
