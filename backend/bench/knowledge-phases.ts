/**
 * Where indexing and searching spend their time, phase by phase, in one thread and without the server:
 * the scale benchmark's corpus (bench/zipf-corpus.ts) chunked, analysed (BM25 terms), embedded offline
 * and written into an embedded SQLite store; then the same 200 queries as `bench:knowledge-scale`
 * (3-5 words), with the lexical step, the vector step over its candidates and the chunk read apart.
 * Prints each phase's total and share, bytes written to disk and the database's size.
 *
 * Run: npx -y pnpm@10 bench:knowledge-phases [--chunks 50000] (KEEP_DB=file keeps the database there, to try queries on)
 */
import { mkdtemp, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chunkText } from "../src/knowledge/chunk-text.js";
import { SqliteIndexStore } from "../src/knowledge/sqlite-index-store.js";
import { offlineEmbed, OFFLINE_DIMENSIONS } from "../src/knowledge/offline-embedder.js";
import { textTerms, textWords } from "../src/knowledge/text-terms.js";
import { documentText, zipfWord } from "./zipf-corpus.js";

const arg = process.argv.indexOf("--chunks");
const TARGET_CHUNKS = arg > 0 ? Number(process.argv[arg + 1]) : 200_000;
const FILES = Math.max(1, Math.round(TARGET_CHUNKS / 24));
const space = { embedder: `offline-${OFFLINE_DIMENSIONS}`, format: "sparse-i8" as const };

const written = async () => Number(/write_bytes:\s+(\d+)/.exec(await readFile("/proc/self/io", "utf8"))![1]);
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
const timed = <T>(totals: Map<string, number>, phase: string, work: () => T): T => {
  const t0 = performance.now();
  const out = work();
  totals.set(phase, (totals.get(phase) ?? 0) + performance.now() - t0);
  return out;
};
function report(title: string, totals: Map<string, number>) {
  const all = [...totals.values()].reduce((a, b) => a + b, 0);
  console.log(`\n${title}: ${(all / 1000).toFixed(1)} s`);
  for (const [phase, ms] of totals) console.log(`  ${phase.padEnd(28)} ${(ms / 1000).toFixed(2).padStart(8)} s  ${((100 * ms) / all).toFixed(1).padStart(5)} %`);
}

const root = await mkdtemp(join(tmpdir(), "moc-kphases-"));
try {
  const store = SqliteIndexStore.open(join(root, "index.db"));
  store.clear(0);
  store.useVectorSpace(space);
  const writtenBefore = await written();
  const indexing = new Map<string, number>();
  let chunkTotal = 0;
  for (let i = 0; i < FILES; i++) {
    const text = timed(indexing, "generate (not the product's)", () => documentText(i));
    const chunks = timed(indexing, "chunk", () => chunkText(text));
    const rows = timed(indexing, "text analysis (BM25 terms)", () => chunks.map((c) => ({ index: c.index, line: c.line, text: c.text, terms: textTerms(c.text).join(" ") })));
    const vectors = timed(indexing, "offline embedding", () => chunks.map((c) => offlineEmbed(c.text)));
    timed(indexing, "store write (one transaction)", () => store.writeDocument({ path: `knowledge/doc-${i}.md`, size: text.length, mtimeMs: i }, rows, { space, rows: vectors }));
    chunkTotal += rows.length;
  }
  indexing.delete("generate (not the product's)");
  report(`indexing ${FILES} documents, ${chunkTotal} chunks`, indexing);
  const files = await readdir(root);
  let bytes = 0;
  for (const f of files) bytes += (await stat(join(root, f))).size;
  console.log(`  written to disk: ${((await written()) - writtenBefore) / 1048576 | 0} MB; database files now ${(bytes / 1048576).toFixed(0)} MB`);

  const searching = new Map<string, number>();
  const latencies: number[] = [];
  for (let i = 0; i < 200; i++) {
    const q = Array.from({ length: 3 + (i % 3) }, zipfWord).join(" ");
    const t0 = performance.now();
    const idf = timed(searching, "idf (offline query weights)", () => store.idf(textWords(q)));
    const embedding = timed(searching, "embed the query", () => offlineEmbed(q, (t) => idf.get(t) ?? 1));
    const candidates = timed(searching, "lexical (BM25 candidates)", () => store.lexical(textTerms(q), store.hybridCandidates()));
    const top = timed(searching, "vector scores of candidates", () => store.vectorScores(candidates.map((c) => c.id), embedding, 10));
    timed(searching, "read the chunks", () => store.chunks(top.map((s) => s.id)));
    latencies.push(performance.now() - t0);
  }
  report("200 queries (3-5 words, k = 10)", searching);
  console.log(`  per query: p50 ${pct(latencies, 50).toFixed(1)} ms, p95 ${pct(latencies, 95).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`);
  store.close();
} finally {
  if (process.env.KEEP_DB) {
    await rename(join(root, "index.db"), process.env.KEEP_DB);
    console.log(`database kept: ${process.env.KEEP_DB}`);
  }
  await rm(root, { recursive: true, force: true });
}
