/** The thread side of job-worker.ts: answers each job with its reply, or with the error it threw. */
import { parentPort } from "node:worker_threads";

export function serveJobs<Job, Reply>(handle: (job: Job) => Reply | Promise<Reply>): void {
  const port = parentPort;
  if (!port) throw new Error("this module runs as a worker thread");
  port.on("message", async ({ id, job }: { id: number; job: Job }) => {
    try {
      port.postMessage({ id, reply: await handle(job) });
    } catch (err) {
      port.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
    }
  });
  port.postMessage({ ready: true });
}
