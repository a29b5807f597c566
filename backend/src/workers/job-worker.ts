/**
 * Work that must never run on the server's thread (parsing what the agent or a server controls),
 * in a worker thread of its own: one job at a time, in order, each with an optional deadline. A job
 * past its deadline cannot hold anything: the worker is terminated and the next job starts a fresh
 * one. A worker that fails or exits fails the job under way with why; the next job starts a new one.
 */
import { type ResourceLimits, Worker } from "node:worker_threads";

export type JobOutcome<Reply> = { ok: true; reply: Reply } | { ok: false; reason: string; timedOut: boolean };

export interface JobWorkerSpec {
  /** The thread's module, relative to `base` and without its extension (`./index-worker-thread`). */
  module: string;
  base: string;
  /** How failures name it: "the indexer", "the schema checker". */
  name: string;
  resourceLimits?: ResourceLimits;
}

/** The worker's module: its compiled .js beside the caller, or the .ts source under tsx and vitest. */
function startWorker(spec: JobWorkerSpec): Worker {
  const fromSource = spec.base.endsWith(".ts");
  const url = new URL(`${spec.module}${fromSource ? ".ts" : ".js"}`, spec.base);
  if (!fromSource) return new Worker(url, { resourceLimits: spec.resourceLimits });
  // Worker threads do not inherit tsx's loader on Node 20: register it, then load the source.
  const boot = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(boot, { eval: true, resourceLimits: spec.resourceLimits });
}

interface Envelope {
  id: number;
  reply?: unknown;
  error?: string;
}

export class JobWorker<Job, Reply> {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private nextId = 1;
  private current: { id: number; settle: (outcome: JobOutcome<Reply>) => void } | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly spec: JobWorkerSpec) {}

  private spawn(): Promise<void> {
    const worker = startWorker(this.spec);
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
    worker.on("message", (message: Envelope | { ready: true }) => {
      if (!("id" in message) || this.current?.id !== message.id) return;
      this.current.settle(message.error !== undefined ? { ok: false, reason: message.error, timedOut: false } : { ok: true, reply: message.reply as Reply });
    });
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.ready = null;
      this.current?.settle({ ok: false, reason: why, timedOut: false });
    };
    worker.on("error", (err) => lost(`${this.spec.name} failed (${err.message})`));
    worker.on("exit", (code) => lost(`${this.spec.name} stopped (exit code ${code})`));
    return this.ready;
  }

  /**
   * Runs one job after those before it; never throws. Past `deadlineMs` the job fails and its worker
   * is terminated. `transfer`: buffers the job hands over rather than copies (they are gone here after).
   */
  run(job: Job, deadlineMs: number | null = null, transfer: ArrayBuffer[] = []): Promise<JobOutcome<Reply>> {
    const next = this.queue.then(() => this.runNow(job, deadlineMs, transfer));
    this.queue = next.catch(() => {});
    return next;
  }

  private async runNow(job: Job, deadlineMs: number | null, transfer: ArrayBuffer[]): Promise<JobOutcome<Reply>> {
    const id = this.nextId++;
    const closed: JobOutcome<Reply> = { ok: false, reason: `${this.spec.name} closed`, timedOut: false };
    if (this.closed) return closed;
    try {
      if (!this.worker) await this.spawn();
      else await this.ready;
    } catch (err) {
      this.worker = null;
      return { ok: false, reason: `${this.spec.name} could not start (${(err as Error).message})`, timedOut: false };
    }
    const worker = this.worker;
    if (this.closed || !worker) return closed;
    return new Promise<JobOutcome<Reply>>((resolve) => {
      const timer =
        deadlineMs === null
          ? null
          : setTimeout(() => {
              settle({ ok: false, reason: `it took over ${deadlineMs} ms`, timedOut: true });
              this.worker = null;
              this.ready = null;
              void worker.terminate();
            }, deadlineMs);
      const settle = (outcome: JobOutcome<Reply>) => {
        if (this.current?.id !== id) return;
        this.current = null;
        if (timer) clearTimeout(timer);
        resolve(outcome);
      };
      this.current = { id, settle };
      worker.postMessage({ id, job }, transfer);
    });
  }

  /** Lets `lastJob` (a goodbye: close what the thread holds) run briefly, then stops the worker. */
  async close(lastJob?: Job): Promise<void> {
    if (this.worker && !this.closed && lastJob !== undefined) await this.run(lastJob, 2_000);
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.current?.settle({ ok: false, reason: `${this.spec.name} closed`, timedOut: false });
    await worker?.terminate();
  }
}
