/**
 * Concurrency: 20 sessions streaming at once against the scripted server. Every stream must carry
 * exactly its own answer (each answer names its session's marker), all must complete, and memory
 * must stay bounded over repeated rounds. Run: pnpm --filter ./backend bench:concurrency
 */
import { lastMessage, messageText } from "../test-support/scripted-model-server.js";
import { postJson, sseEvents, startWorkbench } from "../test-support/workbench-harness.js";

const SESSIONS = Number(process.env.SESSIONS ?? 20);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const TOKENS = 300;
const answerFor = (marker: string) => Array.from({ length: TOKENS }, (_, i) => `${marker}-${i} `).join("");

const wb = await startWorkbench({
  env: { LOG_LEVEL: "silent" },
  script: (body) => {
    const marker = messageText(lastMessage(body).content).trim();
    return { content: answerFor(marker), chunkDelayMs: 2 };
  },
});

async function session(marker: string): Promise<{ events: number; ok: boolean }> {
  const response = await postJson(`${wb.url}/api/chat`, { message: marker, stream: true });
  let text = "";
  let events = 0;
  let final = "";
  for await (const event of sseEvents(response)) {
    events++;
    if (event.type === "token") text += event.content;
    if (event.type === "final") final = event.content;
  }
  const expected = answerFor(marker);
  return { events, ok: text === expected && final === expected };
}

const rss: number[] = [];
const heap: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const t0 = performance.now();
  const results = await Promise.all(Array.from({ length: SESSIONS }, (_, i) => session(`r${round}s${i}`)));
  const seconds = (performance.now() - t0) / 1000;
  const events = results.reduce((n, r) => n + r.events, 0);
  const wrong = results.filter((r) => !r.ok).length;
  wb.model.requests.length = 0; // the scripted server's own recording is not the workbench's memory
  (globalThis as { gc?: () => void }).gc?.();
  rss.push(process.memoryUsage().rss);
  heap.push(process.memoryUsage().heapUsed);
  console.log(
    `round ${round}: ${SESSIONS} sessions × ${TOKENS} tokens in ${seconds.toFixed(2)} s; ${events} events, ${(events / seconds).toFixed(0)} events/s; ` +
      `streams with a foreign or missing event: ${wrong}; RSS ${(rss[rss.length - 1] / 1024 / 1024).toFixed(0)} MB, heap after GC ${(heap[heap.length - 1] / 1024 / 1024).toFixed(1)} MB`,
  );
}
console.log(
  `from round 1 to ${ROUNDS}: heap after GC ${((heap[heap.length - 1] - heap[0]) / 1024 / 1024).toFixed(1)} MB, RSS ${((rss[rss.length - 1] - rss[0]) / 1024 / 1024).toFixed(1)} MB ` +
    "(server and client share this process; run with --expose-gc for the heap figure)",
);
await wb.close();
