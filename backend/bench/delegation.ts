/**
 * Delegation: does fan-out run in parallel, and what does a sub-agent cost on top of its model?
 * The main agent delegates N tasks in one step; each sub-agent's model answers after a fixed delay
 * with 200 streamed tokens. Parallel delegation should take about one sub-agent's time, not N.
 * Run: pnpm --filter ./backend bench:delegation   (FANOUT=1,2,4,8 by default; MODEL_DELAY_MS=300)
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChatEvent } from "@mini-openclaw/protocol";
import { systemPromptOf } from "../test-support/scripted-model-server.js";
import { postJson, sseEvents, startWorkbench } from "../test-support/workbench-harness.js";

const FANOUTS = (process.env.FANOUT ?? "1,2,4,8").split(",").map(Number);
const DELAY = Number(process.env.MODEL_DELAY_MS ?? 300);
const REPEATS = 5;
let fanout = 1;

const wb = await startWorkbench({
  env: { LOG_LEVEL: "silent" },
  script: (body) => {
    if (/^You are the "worker" sub-agent/.test(systemPromptOf(body))) {
      return { firstByteDelayMs: DELAY, content: Array.from({ length: 200 }, (_, i) => `w${i} `).join(""), chunkChars: 4 };
    }
    if (body.messages.some((m) => m.role === "tool")) return { content: "all done" };
    return { toolCalls: Array.from({ length: fanout }, (_, i) => ({ name: "delegate", args: { agent: "worker", task: `part ${i}` } })) };
  },
});
await writeFile(join(wb.dataRoot, "agents/worker.md"), "---\nname: worker\ndescription: Does one part.\ntools: read_file\n---\nDo the part.\n");

async function turn(): Promise<{ ms: number; nested: number }> {
  const t0 = performance.now();
  const response = await postJson(`${wb.url}/api/chat`, { message: "go", stream: true });
  let nested = 0;
  let last: ChatEvent | null = null;
  for await (const event of sseEvents(response)) {
    if (event.type === "delegate") nested++;
    last = event;
  }
  if (last?.type !== "final") throw new Error(`turn failed: ${JSON.stringify(last)}`);
  return { ms: performance.now() - t0, nested };
}

console.log(`sub-agent model: ${DELAY} ms to first byte, 200 tokens; median of ${REPEATS} turns`);
console.log("fan-out | turn ms | ideal (one sub-agent) | nested events");
await turn(); // warm-up
for (const n of FANOUTS) {
  fanout = n;
  const runs = [];
  for (let i = 0; i < REPEATS; i++) runs.push(await turn());
  const ms = runs.map((r) => r.ms).sort((a, b) => a - b)[Math.floor(REPEATS / 2)];
  console.log(`${String(n).padStart(7)} | ${ms.toFixed(0).padStart(7)} | ${String(DELAY).padStart(21)} | ${runs[0].nested}`);
}
await wb.close();
