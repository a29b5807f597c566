/**
 * What the workbench adds to a turn: POST /api/chat against a bare ChatOpenAI stream to the same
 * scripted server, pair by pair, for a 2,000-token answer and for a turn with three tool calls.
 * Run: pnpm --filter ./backend bench:turn
 */
import { ChatOpenAI } from "@langchain/openai";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { lastMessage, type ModelReply, type ModelScript } from "../test-support/scripted-model-server.js";
import { postJson, sseEvents, startWorkbench } from "../test-support/workbench-harness.js";

const PAIRS = Number(process.env.PAIRS ?? 10);
/** Milliseconds between streamed chunks: 0 floods (worst case); 2 is faster than any hosted model (500 tokens/s). */
const PACE = Number(process.env.PACE_MS ?? 2);
const answer = Array.from({ length: 2000 }, (_, i) => `tok${i % 97} `).join(""); // 2,000 chunks
const longAnswer: ModelScript = () => ({ content: answer, chunkChars: answer.length / 2000, chunkDelayMs: PACE });
const toolStep: ModelReply = { toolCalls: ["workspace/SOUL.md", "workspace/USER.md", "memory/MEMORY.md"].map((path) => ({ name: "read_file", args: { path } })) };
const answerStep: ModelReply = { content: answer.slice(0, 2000), chunkChars: 5, chunkDelayMs: PACE };
const threeTools: ModelScript = (body) => (lastMessage(body).role === "tool" ? answerStep : toolStep);
/** The same model requests, made directly: what the turn would cost without the workbench (and without running tools). */
const bareSteps = new Map<ModelScript, ModelReply[]>([
  [longAnswer, [longAnswer({} as never, 0)]],
  [threeTools, [toolStep, answerStep]],
]);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const wb = await startWorkbench({ env: { LOG_LEVEL: "silent" } });
const bare = new ChatOpenAI({ model: "scripted", apiKey: "k", configuration: { baseURL: wb.model.baseUrl }, maxRetries: 0, streaming: true });

async function bareTurn(script: ModelScript) {
  wb.model.setScript([...bareSteps.get(script)!]);
  const t0 = performance.now();
  let first = 0;
  const messages = [new SystemMessage("system"), new HumanMessage("go")];
  for (const _step of bareSteps.get(script)!) {
    const stream = await bare.stream(messages);
    for await (const chunk of stream) if (!first && chunk.content) first = performance.now();
  }
  const request = wb.model.requests[wb.model.requests.length - 1];
  return { firstAfterModel: first - (request.firstTokenAt ?? first), total: performance.now() - t0 };
}

async function workbenchTurn(script: ModelScript) {
  wb.model.setScript(script);
  const before = wb.model.requests.length;
  const t0 = performance.now();
  const t0Wall = Date.now();
  let first = 0;
  let events = 0;
  const response = await postJson(`${wb.url}/api/chat`, { message: "go", stream: true });
  for await (const event of sseEvents(response)) {
    events++;
    if (!first && event.type === "token") first = performance.now();
  }
  const request = wb.model.requests[wb.model.requests.length - 1];
  const startup = wb.model.requests[before].at - t0Wall;
  return { firstAfterModel: first - (request.firstTokenAt ?? first), total: performance.now() - t0, events, startup };
}

for (const [name, script] of [["2,000-token answer", longAnswer], ["three tool calls, then 400 tokens", threeTools]] as const) {
  await bareTurn(script); // warm both paths
  await workbenchTurn(script);
  const ratios: number[] = [];
  const bareTotals: number[] = [];
  const wbTotals: number[] = [];
  const firstGaps: number[] = [];
  const startups: number[] = [];
  const bareGaps: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    const b = await bareTurn(script);
    const w = await workbenchTurn(script);
    ratios.push(w.total / b.total);
    bareTotals.push(b.total);
    wbTotals.push(w.total);
    firstGaps.push(w.firstAfterModel);
    startups.push(w.startup);
    bareGaps.push(b.firstAfterModel);
  }
  console.log(`${name} (${PAIRS} pairs, model pacing ${PACE} ms/chunk):`);
  console.log(`  turn start-up before the model request (session, snapshot, prompt, agent): median ${median(startups).toFixed(0)} ms`);
  console.log(`  end to end: bare ChatOpenAI median ${median(bareTotals).toFixed(0)} ms, /api/chat median ${median(wbTotals).toFixed(0)} ms; ratio median ${median(ratios).toFixed(2)}x, worst ${Math.max(...ratios).toFixed(2)}x`);
  console.log(`  first token reaches the client after the model wrote it: bare median ${median(bareGaps).toFixed(1)} ms, /api/chat median ${median(firstGaps).toFixed(1)} ms, worst ${Math.max(...firstGaps).toFixed(1)} ms`);
}
await wb.close();
