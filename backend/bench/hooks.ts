/**
 * What an empty PreToolUse hook costs a tool call: the same turns (20 steps of one `read_file` call
 * each, then an answer) on the built server (dist/, its own process), with no HOOKS.json and with one
 * PreToolUse hook that reads its input and exits 0 (`cat > /dev/null`). Reported per call: the call's
 * time as its `tool_result` gives it (the hook included), median and p95, with and without; the
 * difference of medians; and the hook runs' own times (spawn to exit) from their `hook` events.
 * Run: pnpm --filter ./backend bench:hooks   (TURNS=n turns per case, 5 by default)
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChatEvent } from "@mini-openclaw/protocol";
import { type ModelScript, startScriptedModelServer } from "../test-support/scripted-model-server.js";
import { startServerProcess } from "../test-support/server-process.js";
import { postJson, sseEvents } from "../test-support/workbench-harness.js";

const TURNS = Number(process.env.TURNS ?? 5);
const CALLS = 20;
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const ms = (x: number) => `${x.toFixed(1)} ms`;

const script: ModelScript = (body) => {
  const calls = body.messages.filter((m) => m.role === "tool").length;
  return calls < CALLS ? { toolCalls: [{ name: "read_file", args: { path: "workspace/SOUL.md" } }] } : { content: "done" };
};
const model = await startScriptedModelServer(script);

async function run(hooks: unknown | null) {
  const root = await mkdtemp(join(tmpdir(), "moc-bench-hooks-"));
  if (hooks) await writeFile(join(root, "HOOKS.json"), JSON.stringify(hooks));
  const server = await startServerProcess({
    WORKBENCH_ROOT: root,
    KEY_FILE: join(root, "none.md"),
    OPENAI_BASE_URL: model.baseUrl,
    OPENAI_API_KEY: "sk-bench-hooks",
    OPENAI_MODEL: "scripted",
    MODEL_MAX_RETRIES: "0",
    APPROVALS: "off",
    LOG_LEVEL: "silent",
  });
  const calls: number[] = [];
  const hookRuns: number[] = [];
  const turns: number[] = [];
  try {
    // One turn to warm up (the grammar, the first process spawns), not counted.
    for (let t = 0; t <= TURNS; t++) {
      const started = performance.now();
      const events: ChatEvent[] = [];
      for await (const event of sseEvents(await postJson(`${server.url}/api/chat`, { message: "read it twenty times", stream: true }))) events.push(event);
      if (events.at(-1)?.type !== "final") throw new Error(`the turn failed: ${JSON.stringify(events.at(-1))}`);
      if (t === 0) continue;
      turns.push(performance.now() - started);
      for (const e of events) {
        if (e.type === "tool_result") calls.push(e.duration_ms);
        if (e.type === "hook") hookRuns.push(e.duration_ms);
      }
    }
  } finally {
    server.child.kill("SIGTERM");
    await new Promise((resolve) => server.child.once("exit", resolve));
    await rm(root, { recursive: true, force: true });
  }
  return { calls, hookRuns, turns };
}

const without = await run(null);
const withHook = await run({ hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "cat > /dev/null" }] }] } });
await model.close();

console.log(`tool calls per case: ${without.calls.length} (${TURNS} turns of ${CALLS} read_file calls)`);
console.log(`no hooks:            call median ${ms(quantile(without.calls, 0.5))}, p95 ${ms(quantile(without.calls, 0.95))}; turn median ${ms(quantile(without.turns, 0.5))}`);
console.log(`empty PreToolUse:    call median ${ms(quantile(withHook.calls, 0.5))}, p95 ${ms(quantile(withHook.calls, 0.95))}; turn median ${ms(quantile(withHook.turns, 0.5))}`);
console.log(`added per call:      median ${ms(quantile(withHook.calls, 0.5) - quantile(without.calls, 0.5))}, p95 ${ms(quantile(withHook.calls, 0.95) - quantile(without.calls, 0.95))}`);
console.log(`the hook's own run:  median ${ms(quantile(withHook.hookRuns, 0.5))}, p95 ${ms(quantile(withHook.hookRuns, 0.95))} (${withHook.hookRuns.length} runs)`);
