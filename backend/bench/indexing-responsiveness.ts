/**
 * Does indexing hold the server's thread? Indexes one large document (20 MB of prose) and then
 * 5,000 small ones with the real KnowledgeBase (reading and chunking in its worker thread), and
 * reports how long indexing took and the event loop's worst delay meanwhile: the longest any
 * request would have waited. Run: pnpm --filter ./backend bench:indexing
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { offlineEmbedder } from "../src/knowledge/embedders.js";
import { KnowledgeBase } from "../src/knowledge/knowledge-base.js";

const WORDS = "the cabbage ferments slowly in brine while lactic bacteria turn sugar into acid and flavour over many weeks".split(" ");
let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

function prose(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const n = 8 + Math.floor(random() * 22);
    const line = Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ") + ".\n" + (random() < 0.1 ? "\n" : "");
    lines.push(line);
    size += line.length;
  }
  return lines.join("");
}

async function measure(label: string, root: string, prepare: () => Promise<void>): Promise<void> {
  await prepare();
  const kb = new KnowledgeBase(root, offlineEmbedder);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  await kb.sync();
  const took = performance.now() - started;
  delay.disable();
  const status = kb.status();
  console.log(
    `${label}: indexed ${status.documents} document(s), ${status.chunks} chunks in ${(took / 1000).toFixed(1)} s; ` +
      `event loop delay max ${(delay.max / 1e6).toFixed(0)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms`,
  );
  await kb.close();
}

const root = await mkdtemp(join(tmpdir(), "moc-bench-indexing-"));
try {
  await mkdir(join(root, "knowledge"), { recursive: true });
  await measure("one 20 MB document", root, () => writeFile(join(root, "knowledge", "book.md"), prose(20 * 1024 * 1024 - 1024)));
  await rm(join(root, "knowledge"), { recursive: true });
  await rm(join(root, "storage"), { recursive: true, force: true });
  await mkdir(join(root, "knowledge", "many"), { recursive: true });
  await measure("5,000 small documents", root, async () => {
    for (let i = 0; i < 5000; i++) await writeFile(join(root, "knowledge", "many", `n${i}.md`), `Note ${i}. ${prose(300)}`);
  });
} finally {
  await rm(root, { recursive: true, force: true });
}
