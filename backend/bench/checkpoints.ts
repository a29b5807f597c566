/**
 * What recording a call's changes costs a turn: one `terminal` call that changes one file, with the
 * workspace as seeded and with 20,000 small files in workspace/ (200 folders of 100). The cost is
 * the call's two scans of the writable folders (and keeping the changed file's contents); the first
 * turn after the 20,000 files appear also keeps all of them once (reported apart).
 * Run: pnpm --filter ./backend bench:checkpoints   (TURNS=30, FILES=20000)
 */
import { chown, mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { postJson, sseEvents, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

const TURNS = Number(process.env.TURNS ?? 30);
const FILES = Number(process.env.FILES ?? 20_000);
let n = 0;

async function turn(wb: Workbench): Promise<{ ms: number; changed: number }> {
  const t0 = performance.now();
  const response = await postJson(`${wb.url}/api/chat`, { message: "touch one", stream: true });
  let changed = 0;
  let last = "";
  for await (const event of sseEvents(response)) {
    if (event.type === "changes") changed += event.files.length;
    last = event.type;
  }
  if (last !== "final") throw new Error(`turn ended with ${last}`);
  return { ms: performance.now() - t0, changed };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function run(label: string, seed: (wb: Workbench) => Promise<void>) {
  const wb = await startWorkbench({
    env: { LOG_LEVEL: "silent" },
    script: (body) => (body.messages.at(-1)?.role === "tool" ? { content: "done" } : { toolCalls: [{ name: "terminal", args: { command: `printf '%s' ${++n} > workspace/counter.txt` } }] }),
  });
  await seed(wb);
  const first = await turn(wb);
  const times: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    const { ms, changed } = await turn(wb);
    if (changed !== 1) throw new Error(`expected one changed file, saw ${changed}`);
    times.push(ms);
  }
  console.log(`${label}: first turn ${first.ms.toFixed(0)} ms; then ${TURNS} turns: p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms`);
  await wb.close();
  return times;
}

const plain = await run("seeded workspace (a few files)", async () => {});
const many = await run(`${FILES.toLocaleString("en")} files in workspace/`, async (wb) => {
  const root = join(wb.dataRoot, "workspace");
  const owner = await stat(root);
  for (let d = 0; d < FILES / 100; d++) {
    const dir = join(root, `d${d}`);
    await mkdir(dir);
    await chown(dir, owner.uid, owner.gid);
    await Promise.all(Array.from({ length: 100 }, (_, f) => writeFile(join(dir, `f${f}.txt`), `file ${d}/${f}\n`)));
  }
});
console.log(`recording's cost with ${FILES.toLocaleString("en")} files: p50 +${(pct(many, 50) - pct(plain, 50)).toFixed(1)} ms, p95 +${(pct(many, 95) - pct(plain, 95)).toFixed(1)} ms per turn with one call`);
