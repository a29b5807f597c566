/**
 * What the sandbox's limits cost and how tight they are: the latency of a trivial terminal and
 * python_repl call (the python call includes the look for processes it left running), how much a
 * writer gets past the per-call write budget before it is stopped, and a 3 GiB allocation.
 * Needs bubblewrap. Run: pnpm --filter ./backend bench:sandbox
 */
import { execFileSync } from "node:child_process";
import { startToolHarness } from "../test-support/tool-harness.js";

const WRITE_MB = 64;
const h = await startToolHarness({ env: { SANDBOX_UID: "65530", SANDBOX_MAX_WRITE_MB: String(WRITE_MB) } });
if (!h.runtime.sandbox.isolated) {
  console.log("bubblewrap is not available here: nothing to measure");
  process.exit(0);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timed(fn: () => Promise<unknown>, runs = 15): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return `median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms (${runs} runs)`;
}
const du = () => Number(execFileSync("du", ["-sm", `${h.dataRoot}/memory`], { encoding: "utf8" }).split("\t")[0]);

try {
  await h.run("python_repl", { code: "1" }); // start the interpreter
  console.log(`terminal 'true': ${await timed(() => h.run("terminal", { command: "true" }))}`);
  console.log(`python_repl '1 + 1' (with the stray-process sweep): ${await timed(() => h.run("python_repl", { code: "1 + 1" }))}`);

  for (const [label, command] of [
    ["dd, one 1 GB file", "dd if=/dev/zero of=memory/w bs=1M count=1024 status=none"],
    ["dd, 8 files of 128 MB", "for i in 1 2 3 4 5 6 7 8; do dd if=/dev/zero of=memory/w$i bs=1M count=128 status=none; done"],
  ] as const) {
    const before = du();
    const t0 = performance.now();
    const result = await h.run("terminal", { command });
    const written = du() - before;
    console.log(
      `${label} with a ${WRITE_MB} MB budget: ${written} MB on disk when stopped after ${(performance.now() - t0).toFixed(0)} ms ` +
        `(${result.output.includes("wrote more than") ? "write budget" : /File too large|File size limit exceeded|exit code 153/.test(result.output) ? "file size limit" : "not stopped"})`,
    );
    await h.run("terminal", { command: "rm -f memory/w*" });
  }
  const t0 = performance.now();
  const big = await h.run("python_repl", { code: "b = bytearray(3 * 1024**3)" });
  console.log(`python_repl 3 GiB allocation: ${/MemoryError/.test(big.output) ? "MemoryError" : "succeeded"} in ${(performance.now() - t0).toFixed(0)} ms`);
} finally {
  await h.close();
}
