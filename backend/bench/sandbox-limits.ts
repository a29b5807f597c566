/**
 * What the sandbox's limits cost and how tight they are: the latency of a trivial terminal and
 * python_repl call (the python call includes the look for processes it left running), how much a
 * writer gets past the per-call write budget before it is stopped (by bytes written, by blocks
 * allocated), a 3 GiB allocation, and what the approval policy's shell parser costs per command.
 * Needs bubblewrap. Run: pnpm --filter ./backend bench:sandbox
 */
import { execFileSync } from "node:child_process";
import { DEFAULT_POLICY, decide } from "../src/approvals/approval-policy.js";
import { startToolHarness } from "../test-support/tool-harness.js";

/** Commands as an agent writes them: reads, pipelines, and forms that must ask. */
const COMMANDS = [
  "ls -la | head", "grep -rn 'a|b' . 2>/dev/null", "cat memory/MEMORY.md | grep x | wc -l", "git log --oneline -5 -- dir",
  "find . -name '*.md' -type f", "ls /nope || echo none", "sed -n '1,5p' f", "sort -r f | uniq -c | sort -rn | head",
  "ls $(touch x)", "echo hi > x", "find . -delete", "git -c core.pager='touch x' log", "bash -c 'touch x'",
  "python3 -c 'import os'", "cat <<EOF > x\nhello\nEOF", "for i in 1 2; do echo $i; done",
  "cd workspace && ls -la && du -sh . && git status --short && echo done",
];

/** The approval decision's cost (parse included) per command, from many runs. */
function parserCost(): string {
  for (const command of COMMANDS) decide(DEFAULT_POLICY, "terminal", { command }); // warm
  const runs = 200;
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) for (const command of COMMANDS) decide(DEFAULT_POLICY, "terminal", { command });
  const perCommand = ((performance.now() - t0) * 1000) / (runs * COMMANDS.length);
  const long = `${"cat f | grep x | ".repeat(200)}wc -l`;
  const t1 = performance.now();
  for (let i = 0; i < 20; i++) decide(DEFAULT_POLICY, "terminal", { command: long });
  return `${perCommand.toFixed(1)} µs per command (${COMMANDS.length} commands × ${runs}); a 401-command pipeline (${long.length} chars): ${((performance.now() - t1) / 20).toFixed(2)} ms`;
}

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
        `(${result.output.includes("wrote more than") ? "write budget" : result.output.includes("on disk") ? "block budget" : /File too large|File size limit exceeded|exit code 153/.test(result.output) ? "file size limit" : "not stopped"})`,
    );
    await h.run("terminal", { command: "rm -f memory/w*" });
  }
  {
    const before = du();
    const t0 = performance.now();
    const result = await h.run("terminal", { command: "for i in $(seq 1 20); do fallocate -l 60M memory/f$i; done" });
    console.log(`fallocate 20 × 60 MB with a ${WRITE_MB} MB budget: ${du() - before} MB on disk after ${(performance.now() - t0).toFixed(0)} ms (${/Operation not supported/.test(result.output) ? "fallocate refused" : "not refused"})`);
    const t1 = performance.now();
    const py = await h.run("python_repl", { code: "import os\nfor i in range(20):\n    fd = os.open(f'memory/p{i}', os.O_CREAT | os.O_WRONLY)\n    os.posix_fallocate(fd, 0, 60 << 20)\n    os.close(fd)" });
    console.log(`posix_fallocate 20 × 60 MB with a ${WRITE_MB} MB budget: ${du() - before} MB on disk when stopped after ${(performance.now() - t1).toFixed(0)} ms (${/on disk/.test(py.output) ? "block budget" : /wrote more than/.test(py.output) ? "write budget" : "not stopped"})`);
    await h.run("terminal", { command: "rm -f memory/f* memory/p*" });
  }
  const t0 = performance.now();
  const big = await h.run("python_repl", { code: "b = bytearray(3 * 1024**3)" });
  console.log(`python_repl 3 GiB allocation: ${/MemoryError/.test(big.output) ? "MemoryError" : "succeeded"} in ${(performance.now() - t0).toFixed(0)} ms`);
  console.log(`approval decision with the shell parser: ${parserCost()}`);
} finally {
  await h.close();
}
