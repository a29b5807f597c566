/**
 * What the workbench adds to a turn: POST /api/chat against a bare ChatOpenAI stream to the same
 * scripted server, pair by pair, for a 2,000-token answer and for a turn with three tool calls,
 * with a model that floods (every chunk at once) and one at 500 chunks a second. The workbench runs
 * as its own process (the built dist/, as users run it), so the reading client here does not share
 * its event loop, as a browser does not.
 * Each case runs with 1 reader (the POST's own stream) and with 10 (the POST plus 9 tabs attached
 * through `GET /api/sessions/:id/stream` as soon as the session is known, from a process of their
 * own, as browser tabs would be): the turn's time is until every reader has its `final`. Also
 * reported: how long a reattaching reader waits for its first (replayed) event, and how far behind
 * the first reader each reader gets each event (p99, on the machine's clock shared by both processes),
 * and the server's own CPU time per turn (utime + stime of its process from /proc, so the readers' and
 * the model server's CPU on the same cores is not counted).
 * Run: pnpm --filter ./backend bench:turn   (PACE_MS=n: one pacing only; PAIRS=n pairs per case; READERS=n one reader count)
 */
import { ChatOpenAI } from "@langchain/openai";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";
import { lastMessage, type ModelReply, type ModelScript, startScriptedModelServer } from "../test-support/scripted-model-server.js";
import { startServerProcess } from "../test-support/server-process.js";
import { postJson } from "../test-support/workbench-harness.js";

const PAIRS = Number(process.env.PAIRS ?? 10);
/** Milliseconds between streamed chunks: 0 floods (a local model on a GPU, the worst case); 2 is 500 tokens/s. */
const PACES = process.env.PACE_MS ? [Number(process.env.PACE_MS)] : [0, 2];
const READER_COUNTS = process.env.READERS ? [Number(process.env.READERS)] : [1, 10];
const answer = Array.from({ length: 2000 }, (_, i) => `tok${i % 97} `).join(""); // 2,000 chunks

function cases(pace: number) {
  const longAnswer: ModelScript = () => ({ content: answer, chunkChars: answer.length / 2000, chunkDelayMs: pace });
  const toolStep: ModelReply = { toolCalls: ["workspace/SOUL.md", "workspace/USER.md", "memory/MEMORY.md"].map((path) => ({ name: "read_file", args: { path } })) };
  const answerStep: ModelReply = { content: answer.slice(0, 2000), chunkChars: 5, chunkDelayMs: pace };
  const threeTools: ModelScript = (body) => (lastMessage(body).role === "tool" ? answerStep : toolStep);
  // The same model requests, made directly: what the turn would cost without the workbench (and without running tools).
  return [
    { name: "2,000-token answer", script: longAnswer, bareSteps: [longAnswer({} as never, 0)] },
    { name: "three tool calls, then 400 tokens", script: threeTools, bareSteps: [toolStep, answerStep] },
  ];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** A key as long as a real one (`BENCH_API_KEY` to choose another): every event and reply is scrubbed of it. */
const KEY = process.env.BENCH_API_KEY ?? "sk-bench-7f3a9c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d1f3a5c7e9b1d";
const model = await startScriptedModelServer([]);
const root = await mkdtemp(join(tmpdir(), "moc-bench-turn-"));
const server = await startServerProcess({
  WORKBENCH_ROOT: root,
  KEY_FILE: join(root, "none.md"),
  OPENAI_BASE_URL: model.baseUrl,
  OPENAI_API_KEY: KEY,
  OPENAI_MODEL: "scripted",
  MODEL_MAX_RETRIES: "0",
  LOG_LEVEL: "silent",
});
const wb = { url: server.url, model };

/** CPU milliseconds the server process has used (user + system), from /proc/<pid>/stat at 100 ticks a second. */
function serverCpuMs(): number {
  const stat = readFileSync(`/proc/${server.child.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14 and 15 of the line)
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
const clock = () => performance.timeOrigin + performance.now();

/**
 * The other tabs: a process that, per line `<url> <n>` on its input, opens n readers of that stream at
 * once, reads each to its end (splitting frames by hand, as cheaply as a tab's EventSource), and
 * answers with one JSON line: each reader's wait for its first event and the arrival time of each id.
 */
const TABS = `
  const clock = () => performance.timeOrigin + performance.now();
  // node:http, not fetch: WHATWG streams cost more per chunk than a tab's native EventSource would.
  const http = require("node:http");
  function read(url) {
    return new Promise((resolve) => {
      const asked = clock();
      http.get(url, (res) => {
        // 204: the turn ended before this reader came (a flooding model can finish in 50 ms).
        if (res.statusCode !== 200) { res.resume(); return resolve({ wait: -1, arrivals: [] }); }
        res.setEncoding("utf8");
        let buffer = "", first = 0;
        const arrivals = [];
        res.on("data", (chunk) => {
          const at = clock();
          buffer += chunk;
          let boundary;
          while ((boundary = buffer.indexOf("\\n\\n")) >= 0) {
            const frame = buffer.slice(0, boundary);
            buffer = buffer.slice(boundary + 2);
            if (!frame.startsWith("id: ")) continue;
            if (!first) first = at;
            arrivals.push([Number(frame.slice(4, frame.indexOf("\\n"))), at]);
          }
        });
        res.on("end", () => resolve({ wait: first - asked, arrivals }));
      });
    });
  }
  require("node:readline").createInterface({ input: process.stdin }).on("line", async (line) => {
    const [url, n] = line.split(" ");
    const results = await Promise.all(Array.from({ length: Number(n) }, () => read(url)));
    process.stdout.write(JSON.stringify(results) + "\\n");
  });
`;
const tabs = spawn(process.execPath, ["-e", TABS], { stdio: ["pipe", "pipe", "inherit"] });
const tabAnswers = createInterface({ input: tabs.stdout! });
const nextTabAnswer = () => new Promise<string>((resolve) => tabAnswers.once("line", resolve));

const bare = new ChatOpenAI({ model: "scripted", apiKey: KEY, configuration: { baseURL: model.baseUrl }, maxRetries: 0, streaming: true });

async function bareTurn(steps: ModelReply[]) {
  wb.model.setScript([...steps]);
  const t0 = performance.now();
  let first = 0;
  const messages = [new SystemMessage("system"), new HumanMessage("go")];
  for (const _step of steps) {
    const stream = await bare.stream(messages);
    for await (const chunk of stream) if (!first && chunk.content) first = performance.now();
  }
  const request = wb.model.requests[wb.model.requests.length - 1];
  return { firstAfterModel: first - (request.firstTokenAt ?? first), total: performance.now() - t0 };
}

/** Reads the POST's own stream to its end, noting when each event id arrived; `onSession` once it names the session. */
async function readStream(response: Response, arrivals: Map<number, number>, onSession: (sessionId: string) => void) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let first = 0;
  let events = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const at = clock();
    buffer += decoder.decode(value, { stream: true });
    let boundary: number;
    while ((boundary = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      if (!frame.startsWith("id: ")) continue;
      const newline = frame.indexOf("\n");
      events++;
      arrivals.set(Number(frame.slice(4, newline)), at);
      if (!first && frame.includes('"type":"token"')) first = performance.now();
      if (events === 1) onSession((JSON.parse(frame.slice(newline + 7)) as { session_id: string }).session_id);
    }
  }
  return { first, events };
}

async function workbenchTurn(script: ModelScript, readers: number) {
  wb.model.setScript(script);
  const before = wb.model.requests.length;
  const t0 = clock();
  const t0Wall = Date.now();
  const cpuBefore = serverCpuMs();
  const response = await postJson(`${wb.url}/api/chat`, { message: "go", stream: true });
  const own = new Map<number, number>();
  let others: Promise<string> = Promise.resolve("[]");
  const mainReader = await readStream(response, own, (sessionId) => {
    if (readers <= 1) return;
    others = nextTabAnswer();
    tabs.stdin!.write(`${wb.url}/api/sessions/${sessionId}/stream ${readers - 1}\n`);
  });
  const tabResults = JSON.parse(await others) as Array<{ wait: number; arrivals: Array<[number, number]> }>;
  const request = wb.model.requests[wb.model.requests.length - 1];
  const startup = wb.model.requests[before].at - t0Wall;
  // How far behind the first reader each reader got each event.
  const arrivals = [own, ...tabResults.map((r) => new Map(r.arrivals))];
  const lags: number[] = [];
  for (const [id] of own) {
    const times = arrivals.map((m) => m.get(id)).filter((t): t is number => t !== undefined);
    const firstAt = Math.min(...times);
    for (const t of times) lags.push(t - firstAt);
  }
  // The turn is over for its readers when the last of them has its last event (not when the other
  // process has shipped its timings here).
  const end = Math.max(...arrivals.filter((m) => m.size > 0).map((m) => Math.max(...m.values())));
  // Work the server still does once the readers have everything (storing the session's last lines) belongs to the turn.
  await new Promise((r) => setTimeout(r, 50));
  const cpu = serverCpuMs() - cpuBefore;
  return {
    cpu,
    firstAfterModel: mainReader.first - (request.firstTokenAt ?? mainReader.first),
    total: end - t0,
    events: mainReader.events,
    startup,
    attachWaits: tabResults.filter((r) => r.wait >= 0).map((r) => r.wait),
    late: tabResults.filter((r) => r.wait < 0).length,
    lags,
  };
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0;

const cases_ = PACES.flatMap((pace) => cases(pace).flatMap((c) => READER_COUNTS.map((readers) => ({ ...c, pace, readers }))));
for (const { name, script, bareSteps, pace, readers } of cases_) {
  await bareTurn(bareSteps); // warm both paths
  await workbenchTurn(script, readers);
  const ratios: number[] = [];
  const bareTotals: number[] = [];
  const wbTotals: number[] = [];
  const firstGaps: number[] = [];
  const startups: number[] = [];
  const bareGaps: number[] = [];
  const attachWaits: number[] = [];
  const lags: number[] = [];
  let cpu = 0;
  let late = 0;
  for (let i = 0; i < PAIRS; i++) {
    const b = await bareTurn(bareSteps);
    const w = await workbenchTurn(script, readers);
    ratios.push(w.total / b.total);
    bareTotals.push(b.total);
    wbTotals.push(w.total);
    firstGaps.push(w.firstAfterModel);
    startups.push(w.startup);
    bareGaps.push(b.firstAfterModel);
    attachWaits.push(...w.attachWaits);
    late += w.late;
    lags.push(...w.lags);
    cpu += w.cpu;
  }
  console.log(`${name} (${PAIRS} pairs, model pacing ${pace} ms/chunk${pace === 0 ? ": flooding" : ""}, ${readers} reader${readers === 1 ? "" : "s"}):`);
  console.log(`  turn start-up before the model request (session, snapshot, prompt, agent): median ${median(startups).toFixed(0)} ms`);
  console.log(`  end to end: bare ChatOpenAI median ${median(bareTotals).toFixed(0)} ms, /api/chat median ${median(wbTotals).toFixed(0)} ms; ratio median ${median(ratios).toFixed(2)}x, worst ${Math.max(...ratios).toFixed(2)}x`);
  console.log(`  first token reaches the client after the model wrote it: bare median ${median(bareGaps).toFixed(1)} ms, /api/chat median ${median(firstGaps).toFixed(1)} ms, worst ${Math.max(...firstGaps).toFixed(1)} ms`);
  console.log(`  server CPU per turn (its process's utime + stime): ${(cpu / PAIRS).toFixed(1)} ms`);
  if (readers > 1) {
    if (late) console.log(`  ${late} attaching readers came after their turn had ended (204)`);
    console.log(`  reattach: first (replayed) event after the GET: median ${median(attachWaits).toFixed(1)} ms, p99 ${percentile(attachWaits, 99).toFixed(1)} ms, worst ${Math.max(...attachWaits).toFixed(1)} ms`);
    console.log(`  each reader behind the first, per event: p50 ${percentile(lags, 50).toFixed(1)} ms, p99 ${percentile(lags, 99).toFixed(1)} ms`);
  }
}
tabs.kill();
server.child.kill("SIGTERM");
await model.close();
await rm(root, { recursive: true, force: true });
