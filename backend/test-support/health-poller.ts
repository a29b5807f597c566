/**
 * Polls a workbench's /api/health from a process of its own, every 50 ms, and gives the slowest
 * answer when stopped: what the server's latency is, not the test process's (whose own event loop
 * may be busy serving the pages and the model the test scripts).
 */
import { spawn } from "node:child_process";

const POLLER = `
let slowest = 0, polls = 0, stop = false;
process.stdin.on("end", () => { stop = true; }); process.stdin.resume();
(async () => {
  while (!stop) {
    const started = performance.now();
    try { await (await fetch(process.argv[1] + "/api/health")).arrayBuffer(); } catch { slowest = Infinity; }
    slowest = Math.max(slowest, performance.now() - started);
    polls++;
    await new Promise((r) => setTimeout(r, 50));
  }
  process.stdout.write(JSON.stringify({ slowest, polls }));
})();
`;

export interface HealthPolls {
  /** The slowest answer, in ms (Infinity when one failed). */
  slowest: number;
  polls: number;
}

export function startHealthPoller(url: string): { stop(): Promise<HealthPolls> } {
  const child = spawn(process.execPath, ["-e", POLLER, url], { stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    async stop() {
      child.stdin.end();
      await exited;
      return JSON.parse(out) as HealthPolls;
    },
  };
}
