/**
 * The memory consolidation against a flood (issue 55): a data root with a daily log of LOG_MB (1,024 by
 * default, written as text lines) and SESSIONS sessions of a turn each, on the built server (dist/, its
 * own process). Reported: how long a Run now takes to its recorded end (the helper answers at once), what
 * the helper was sent (characters, against the 200,000 budget), the slowest `/api/health` while it ran
 * (polled every 50 ms from a process of its own), and the server's peak RSS.
 * Then 10,000 proposals on disk: the restart to the first answer, and one page of the queue.
 * Run: pnpm --filter ./backend bench:consolidation   (LOG_MB=n, SESSIONS=n)
 */
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TaskRun } from "@mini-openclaw/protocol";
import { startHealthPoller } from "../test-support/health-poller.js";
import { lastMessage, messageText, startScriptedModelServer } from "../test-support/scripted-model-server.js";
import { startServerProcess } from "../test-support/server-process.js";
import { postJson } from "../test-support/workbench-harness.js";

const LOG_MB = Number(process.env.LOG_MB ?? 1024);
const SESSIONS = Number(process.env.SESSIONS ?? 200);
const PROPOSALS = 10_000;

let helperChars = 0;
const model = await startScriptedModelServer((body) => {
  const text = messageText(lastMessage(body).content);
  if (!text.includes("memory helper")) return { content: "An answer worth remembering." };
  helperChars = text.length;
  return { content: JSON.stringify({ memory: [{ file: "memory/MEMORY.md", edits: [{ op: "add", text: "- A fact." }] }] }) };
});
const root = await mkdtemp(join(tmpdir(), "moc-bench-consolidation-"));
const today = new Date();
const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;
await mkdir(join(root, "memory/logs"), { recursive: true });
const log = await open(join(root, `memory/logs/${day}.md`), "w");
const block = Buffer.from("- a line of a daily log that grew far past anything a person writes in a day\n".repeat(13_000));
for (let written = 0; written < LOG_MB * 1024 * 1024; written += block.length) await log.write(block);
await log.close();

const env = { WORKBENCH_ROOT: root, KEY_FILE: join(root, "none.md"), OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "sk-bench-consolidation", OPENAI_MODEL: "scripted", MODEL_MAX_RETRIES: "0", APPROVALS: "off", LOG_LEVEL: "silent" };
let server = await startServerProcess(env);
const rss = async () => Number(/VmHWM:\s+(\d+)/.exec(await readFile(`/proc/${server.child.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
try {
  for (let i = 0; i < SESSIONS; i++) await (await postJson(`${server.url}/api/chat`, { message: `Session ${i}: remember that item ${i} is blue.`, stream: false })).arrayBuffer();
  const poller = startHealthPoller(server.url);
  const started = performance.now();
  await postJson(`${server.url}/api/tasks/consolidation/run`, {});
  let run: TaskRun | undefined;
  while (!run || run.outcome === "running") {
    await new Promise((r) => setTimeout(r, 20));
    run = ((await (await fetch(`${server.url}/api/tasks/consolidation/runs`)).json()) as { runs: TaskRun[] }).runs[0];
  }
  const took = performance.now() - started;
  const health = await poller.stop();
  console.log(`data: a ${LOG_MB} MB daily log, ${SESSIONS} sessions of one turn`);
  console.log(`run now → recorded end: ${took.toFixed(0)} ms (${run.outcome}: ${run.detail?.slice(0, 80)})`);
  console.log(`the helper was sent ${helperChars} characters (budget 200,000, with the instructions and the memory files)`);
  console.log(`/api/health while it ran: slowest ${health.slowest.toFixed(1)} ms over ${health.polls} polls; server peak RSS ${(await rss()).toFixed(0)} MB`);

  // 10,000 proposals waiting: the restart reads them all.
  server.child.kill("SIGTERM");
  await new Promise((resolve) => server.child.once("exit", resolve));
  const dir = join(root, "storage/proposals");
  for (let i = 0; i < PROPOSALS; i += 500) {
    await Promise.all(
      Array.from({ length: 500 }, (_, k) => {
        const id = `prop_${(i + k).toString(16).padStart(12, "0")}`;
        return writeFile(join(dir, `${id}.json`), JSON.stringify({ v: 1, id, kind: "memory", target: "memory/MEMORY.md", by: "consolidation", created_at: new Date(1.7e12 + (i + k) * 1000).toISOString(), session_id: "s_x", turn: 1, summary: "", hunks: [{ op: "add", text: `- fact ${i + k}`, reason: "", sources: [], state: "pending" }] }));
      }),
    );
  }
  const restart = performance.now();
  server = await startServerProcess(env);
  const ready = performance.now() - restart;
  const page = performance.now();
  const reply = (await (await fetch(`${server.url}/api/proposals?state=pending&limit=50`)).json()) as { total: number };
  console.log(`${reply.total} proposals waiting: restart to ready ${ready.toFixed(0)} ms; one page of 50 ${(performance.now() - page).toFixed(1)} ms; peak RSS ${(await rss()).toFixed(0)} MB`);
} finally {
  server.child.kill("SIGTERM");
  await new Promise((resolve) => server.child.once("exit", resolve));
  await model.close();
  await rm(root, { recursive: true, force: true });
}
