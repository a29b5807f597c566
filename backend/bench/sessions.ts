/**
 * Session search and listing at scale: 2,000 sessions of 20 turns each (about 1 KB of text per turn),
 * through the real HTTP API. Reports the first search (every file read and indexed), then searches
 * and listings with the index warm, and the heap the index holds. Run: pnpm bench:sessions
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionSearchReply } from "@mini-openclaw/protocol";
import { writeSessionFile } from "../test-support/session-files.js";
import { startWorkbench } from "../test-support/workbench-harness.js";

const SESSIONS = 2000;
const TURNS = 20;
const WORDS = "garden tomato river budget invoice kernel python harbor violin glacier quartz meadow lantern copper saffron tundra".split(" ");
const word = (n: number) => WORDS[n % WORDS.length] + (n % 97);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];

const root = await mkdtemp(join(tmpdir(), "moc-bench-sessions-"));
const t0 = performance.now();
for (let s = 0; s < SESSIONS; s++) {
  await writeSessionFile(root, `bench-${String(s).padStart(4, "0")}`, TURNS, (i) => {
    const n = s * TURNS + i;
    const sentence = (k: number) => `The ${word(n + k)} and the ${word(n * 7 + k)} were checked against the ${word(n * 13 + k)} notes. `;
    return { user: `Question ${i}: what about the ${word(n)} and ${word(n * 3)}?`, answer: Array.from({ length: 12 }, (_, k) => sentence(k)).join("") };
  }, new Date(Date.UTC(2025, 0, 1) + s * 3_600_000));
}
console.log(`wrote ${SESSIONS} sessions x ${TURNS} turns in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const wb = await startWorkbench({ dataRoot: root, env: { LOG_LEVEL: "silent" } });
const heapBefore = (global.gc?.(), process.memoryUsage().heapUsed);
const timed = async (path: string) => {
  const start = performance.now();
  const response = await fetch(`${wb.url}${path}`);
  const body = await response.json();
  return { ms: performance.now() - start, body };
};

const cold = await timed("/api/sessions/search?q=quartz42");
console.log(`first search (reads and indexes every file): ${cold.ms.toFixed(0)} ms, ${(cold.body as SessionSearchReply).results.length} results of ${(cold.body as SessionSearchReply).searched}`);
global.gc?.();
console.log(`index heap: ~${((process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024).toFixed(0)} MB (server and benchmark share the process)`);

const queries = ["quartz42", "violin13 harbor", "saffron7", "nothing-matches-this", "copper55 meadow", "Question 15", "glacier3 tundra9", "lantern"];
const times: number[] = [];
let results = 0;
for (let round = 0; round < 5; round++) {
  for (const q of queries) {
    const r = await timed(`/api/sessions/search?q=${encodeURIComponent(q)}`);
    times.push(r.ms);
    results += (r.body as SessionSearchReply).results.length;
  }
}
console.log(`search, index warm: median ${median(times).toFixed(1)} ms, p95 ${p95(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms (${times.length} queries, ${results} results; at most 50 per query)`);

const listTimes: number[] = [];
for (let i = 0; i < 10; i++) listTimes.push((await timed("/api/sessions")).ms);
console.log(`GET /api/sessions (${SESSIONS} sessions), warm: median ${median(listTimes).toFixed(1)} ms, max ${Math.max(...listTimes).toFixed(1)} ms`);

await wb.close();
await rm(root, { recursive: true, force: true });
