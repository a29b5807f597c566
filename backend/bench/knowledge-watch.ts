/**
 * What following knowledge/ costs with 10,000 files in 100 folders: the real KnowledgeBase started
 * as the server starts it (folder events), against the polling it replaced (a walk every 2 s).
 * Reports the folders watched, the walks and the CPU time of the server's process over 20 s with
 * nothing changing, one walk's time, and how long a new document takes to become searchable.
 * Run: pnpm --filter ./backend bench:watch
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { offlineEmbedder } from "../src/knowledge/embedders.js";
import { KnowledgeBase } from "../src/knowledge/knowledge-base.js";

const FILES = 10_000;
const FOLDERS = 100;
const IDLE_MS = 20_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const root = await mkdtemp(join(tmpdir(), "moc-watch-bench-"));
for (let f = 0; f < FOLDERS; f++) {
  await mkdir(join(root, "knowledge", `folder${f}`), { recursive: true });
  for (let i = 0; i < FILES / FOLDERS; i++) {
    await writeFile(join(root, "knowledge", `folder${f}`, `note${i}.md`), `# Note ${f}-${i}\n\nA note about topic${f} and item${i}.\n`);
  }
}

async function idle(kb: KnowledgeBase, tick?: () => Promise<void>) {
  const walksBefore = kb.status().watch.walks;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const cpu = process.cpuUsage();
  const until = Date.now() + IDLE_MS;
  while (Date.now() < until) {
    if (tick) await tick();
    await sleep(tick ? 2000 : 500);
  }
  const used = process.cpuUsage(cpu);
  delay.disable();
  return {
    walks: kb.status().watch.walks - walksBefore,
    cpuMs: (used.user + used.system) / 1000,
    maxDelayMs: delay.max / 1e6,
  };
}

// 1. Folder events (what the server does).
let started = performance.now();
const watched = new KnowledgeBase(root, offlineEmbedder);
watched.start();
while (watched.status().documents < FILES || watched.status().indexing.running) await sleep(200);
const indexMs = performance.now() - started;
await sleep(2000); // the looks that follow the first watches settle
const state = watched.status().watch;
const events = await idle(watched);
started = performance.now();
await writeFile(join(root, "knowledge", "folder42", "fresh.md"), "A fresh note about quinces.\n");
while (!(await watched.search("quinces", 1, { sync: false })).results.some((r) => r.source.endsWith("fresh.md"))) await sleep(10);
const eventLatencyMs = performance.now() - started;
await watched.close();

// 2. Polling, as before: a walk (sync) every 2 s.
const polled = new KnowledgeBase(root, offlineEmbedder);
await polled.load();
const walkStarted = performance.now();
await polled.sync();
const walkMs = performance.now() - walkStarted;
const polling = await idle(polled, () => polled.sync());
await polled.close();

console.log(`${FILES} files in ${FOLDERS} folders; first index ${(indexMs / 1000).toFixed(1)} s`);
console.log(`folder events: ${state.folders} folders watched (mode ${state.mode}); over ${IDLE_MS / 1000} s unchanged: ${events.walks} walks, CPU ${events.cpuMs.toFixed(0)} ms, event-loop max delay ${events.maxDelayMs.toFixed(0)} ms`);
console.log(`  a new document searchable after ${eventLatencyMs.toFixed(0)} ms`);
console.log(`polling every 2 s: one walk ${walkMs.toFixed(0)} ms; over ${IDLE_MS / 1000} s unchanged: ${polling.walks} walks, CPU ${polling.cpuMs.toFixed(0)} ms, event-loop max delay ${polling.maxDelayMs.toFixed(0)} ms`);
await rm(root, { recursive: true, force: true });
