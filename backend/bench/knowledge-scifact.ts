/**
 * BEIR SciFact through the real knowledge base: the 5,183 abstracts written as files under a
 * fresh data root's knowledge/, indexed, reloaded from storage/, and queried with the 300 test
 * claims. Prints nDCG@10 and Recall@100 for BM25 alone, vector alone and hybrid, plus timings and
 * memory. Scale is bench:knowledge-scale. Run: pnpm --filter ./backend bench:knowledge
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Scored } from "../src/knowledge/top-k.js";
import { offlineEmbedder } from "../src/knowledge/embedders.js";
import { DEFAULT_ALPHA, reciprocalRankFusion } from "../src/knowledge/fusion.js";
import type { KnowledgeServerConfig } from "../src/config/config.js";
import { KnowledgeBase } from "../src/knowledge/knowledge-base.js";
import { startPostgresEngine } from "../test-support/postgres-engine.js";
import { offlineEmbed } from "../src/knowledge/offline-embedder.js";
import { textTerms, textWords } from "../src/knowledge/text-terms.js";
import { StemmedBm25 } from "./stemmed-bm25.js";

const DATA = resolve(process.env.SCIFACT_DIR ?? join(import.meta.dirname, "..", "..", "..", "shared", "bench-data", "scifact"));
if (!existsSync(join(DATA, "corpus.jsonl"))) {
  console.error(`SciFact data not found at ${DATA} (set SCIFACT_DIR)`);
  process.exit(1);
}
const lines = (file: string) => readFileSync(join(DATA, file), "utf8").trim().split("\n");
const corpus = lines("corpus.jsonl").map((l) => JSON.parse(l) as { _id: string; title: string; text: string });
const queries = new Map(lines("queries.jsonl").map((l) => JSON.parse(l) as { _id: string; text: string }).map((q) => [q._id, q.text]));
function qrels(file: string) {
  const out = new Map<string, Map<string, number>>();
  for (const line of lines(file).slice(1)) {
    const [q, d, s] = line.split("\t");
    if (!out.has(q)) out.set(q, new Map());
    out.get(q)!.set(d, Number(s));
  }
  return out;
}
const testQrels = qrels("qrels-test.tsv");
const trainQrels = qrels("qrels-train.tsv");

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

function ndcg10(ranked: string[], rel: Map<string, number>): number {
  let dcg = 0;
  ranked.slice(0, 10).forEach((d, i) => (dcg += (2 ** (rel.get(d) ?? 0) - 1) / Math.log2(i + 2)));
  let idcg = 0;
  [...rel.values()].sort((a, b) => b - a).slice(0, 10).forEach((r, i) => (idcg += (2 ** r - 1) / Math.log2(i + 2)));
  return idcg > 0 ? dcg / idcg : 0;
}
function recall100(ranked: string[], rel: Map<string, number>): number {
  const relevant = [...rel].filter(([, s]) => s > 0).map(([d]) => d);
  const top = new Set(ranked.slice(0, 100));
  return relevant.length ? relevant.filter((d) => top.has(d)).length / relevant.length : 0;
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Chunk hits → documents, best chunk first (a document ranks by its best chunk). */
function docRanking(sources: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const s of sources) {
    const id = s.replace(/^knowledge\/scifact\//, "").replace(/\.txt$/, "");
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return out;
}

// 1. The corpus as files under a fresh data root's knowledge/.
const root = await mkdtemp(join(tmpdir(), "moc-scifact-"));
await mkdir(join(root, "knowledge", "scifact"), { recursive: true });
for (const doc of corpus) await writeFile(join(root, "knowledge", "scifact", `${doc._id}.txt`), `${doc.title}\n${doc.text}`);
const collect = () => (globalThis as { gc?: () => void }).gc?.();

// The baseline: a plain stemmed BM25 over whole documents (bench/stemmed-bm25.ts), with Lucene's
// default parameters and with BEIR's (Pyserini's k1 0.9, b 0.4).
const baseline = new StemmedBm25();
for (const doc of corpus) baseline.add(doc._id, `${doc.title}\n${doc.text}`);
const LUCENE = { k1: 1.2, b: 0.75 };
const PYSERINI = { k1: 0.9, b: 0.4 };
/** Per query, what fusion is made of (for bench/fusion-tuning.ts): BM25's candidates and their vector scores, by chunk. */
const runsOut: Record<string, { lexical: Array<[number, number]>; vector: Array<[number, number]> }> = {};
const chunkDocs: Record<number, string> = {};

/** Indexes the corpus into one store, reloads it in a fresh instance, and scores both query sets. */
async function runOn(server: KnowledgeServerConfig | null) {
  let started = performance.now();
  const kb = new KnowledgeBase(root, offlineEmbedder, undefined, undefined, server);
  await kb.sync();
  const indexMs = performance.now() - started;
  const status = kb.status();
  await kb.close();

  // 2. Reload in a fresh instance (no re-embedding). The indexing's garbage is collected first, as a
  // restarted server starts with a clean heap (run with --expose-gc, as the package script does).
  collect();
  started = performance.now();
  const reloaded = new KnowledgeBase(root, offlineEmbedder, undefined, undefined, server);
  await reloaded.load();
  const reloadMs = performance.now() - started;

  // 3. Queries: hybrid through the knowledge base; BM25 and vector alone from the same store.
  const store = (await reloaded.llamaIndexStore()).client();
  const pathsOf = async (hits: Scored[]) => {
    const chunks = await store.chunks(hits.map((h) => h.id));
    return hits.map((h) => chunks.get(h.id)!.path);
  };
  async function evaluate(set: Map<string, Map<string, number>>) {
    const scores = { stemmed_bm25: [[], []], stemmed_bm25_beir: [[], []], bm25: [[], []], vector: [[], []], hybrid: [[], []], rrf: [[], []] } as Record<string, [number[], number[]]>;
    const latency: number[] = [];
    for (const [qid, rel] of set) {
      const text = queries.get(qid)!;
      const t0 = performance.now();
      const reply = await reloaded.search(text, 100, { sync: false });
      latency.push(performance.now() - t0);
      const lexical = await store.lexical(textTerms(text), 100);
      const idf = await store.idf(textWords(text.toLowerCase()));
      const vector = await store.scanVectors(offlineEmbed(text, (t) => idf.get(t) ?? 1), 100);
      if (process.env.SCIFACT_RUNS && server === null) {
        const candidates = await store.lexical(textTerms(text), await store.hybridCandidates());
        const scored = await store.vectorScores(candidates.map((c) => c.id), offlineEmbed(text, (t) => idf.get(t) ?? 1), candidates.length);
        runsOut[qid] = { lexical: candidates.map((c) => [c.id, c.score]), vector: scored.map((c) => [c.id, c.score]) };
        const chunks = await store.chunks([...new Set([...candidates, ...scored].map((c) => c.id))]);
        for (const [id, chunk] of chunks) chunkDocs[id] = docRanking([chunk.path])[0];
      }
      const rankings: Record<string, string[]> = {
        stemmed_bm25: baseline.search(text, 100, LUCENE),
        stemmed_bm25_beir: baseline.search(text, 100, PYSERINI),
        bm25: docRanking(await pathsOf(lexical)),
        vector: docRanking(await pathsOf(vector)),
        hybrid: docRanking(reply.results.map((r) => r.source)),
        rrf: docRanking(await pathsOf(reciprocalRankFusion([lexical, vector]))),
      };
      for (const [name, ranked] of Object.entries(rankings)) {
        scores[name][0].push(ndcg10(ranked, rel));
        scores[name][1].push(recall100(ranked, rel));
      }
    }
    return { scores, latency };
  }
  const test = await evaluate(testQrels);
  const train = await evaluate(trainQrels);
  await reloaded.close();
  return { status, indexMs, reloadMs, test, train };
}

/**
 * The PostgreSQL store's run: on KNOWLEDGE_STORE_URL when it is set, else on a PGlite engine with
 * pgvector started here (test-support/postgres-engine.ts). BENCH_STORES=sqlite skips it.
 */
async function runOnPostgres() {
  const engine = process.env.KNOWLEDGE_STORE_URL ? null : await startPostgresEngine({ vector: true });
  try {
    const url = process.env.KNOWLEDGE_STORE_URL ?? engine!.url();
    return await runOn({ url, collection: "scifact_bench", leaseMs: 30_000 });
  } finally {
    await engine?.close();
  }
}

const runs: Array<[string, Awaited<ReturnType<typeof runOn>>]> = [["SQLite (embedded)", await runOn(null)]];
if (process.env.BENCH_STORES !== "sqlite") runs.push(["PostgreSQL", await runOnPostgres()]);
// Per-query nDCG@10 of each method on the embedded store, for a paired comparison of two versions (bench/paired-bootstrap.ts).
if (process.env.SCIFACT_SCORES) {
  const { test, train } = runs[0][1];
  const perQuery = (run: typeof test) => Object.fromEntries(Object.entries(run.scores).map(([name, [n]]) => [name, n]));
  writeFileSync(process.env.SCIFACT_SCORES, JSON.stringify({ test: { queries: [...testQrels.keys()], ...perQuery(test) }, train: { queries: [...trainQrels.keys()], ...perQuery(train) } }));
}
if (process.env.SCIFACT_RUNS) writeFileSync(process.env.SCIFACT_RUNS, JSON.stringify({ runs: runsOut, chunkDocs, test: Object.fromEntries([...testQrels].map(([q, r]) => [q, Object.fromEntries(r)])), train: Object.fromEntries([...trainQrels].map(([q, r]) => [q, Object.fromEntries(r)])) }));
const label: Record<string, string> = { stemmed_bm25: "stemmed BM25 (Lucene, 1.2/0.75)", stemmed_bm25_beir: "stemmed BM25 (BEIR, 0.9/0.4)", bm25: "BM25 alone", vector: "vector alone (offline)", hybrid: `hybrid (min-max, α=${DEFAULT_ALPHA})`, rrf: "hybrid via RRF (k=60)" };
for (const [store, run] of runs) {
  console.log(`\n== ${store}: ${run.status.store.location}${run.status.store.kind === "postgres" ? ` (vectors: ${run.status.store.vectors})` : ""}`);
  console.log(`SciFact: ${corpus.length} documents → ${run.status.chunks} chunks; embedder: ${run.status.embedder.label}`);
  console.log(`index (files → chunks → BM25 + vectors → store): ${(run.indexMs / 1000).toFixed(1)} s; reload: ${run.reloadMs.toFixed(0)} ms`);
  console.log(`${"method".padEnd(32)} nDCG@10  Recall@100   (test, ${testQrels.size} queries)   train nDCG@10 (${trainQrels.size} queries)`);
  for (const name of ["stemmed_bm25", "stemmed_bm25_beir", "bm25", "vector", "hybrid", "rrf"]) {
    const [n, r] = run.test.scores[name];
    console.log(`${label[name].padEnd(32)} ${mean(n).toFixed(4)}   ${mean(r).toFixed(4)}                        ${mean(run.train.scores[name][0]).toFixed(4)}`);
  }
  console.log(`query latency (hybrid, k=100, ${run.test.latency.length} queries): p50 ${pct(run.test.latency, 50).toFixed(1)} ms, p95 ${pct(run.test.latency, 95).toFixed(1)} ms`);
}
if (runs.length === 2) {
  const hybrid = (run: (typeof runs)[number][1]) => mean(run.test.scores.hybrid[0]);
  console.log(`\nhybrid nDCG@10, PostgreSQL − SQLite: ${(hybrid(runs[1][1]) - hybrid(runs[0][1])).toFixed(4)}`);
}
console.log(`peak RSS so far: ${mb(peakRss)}`);
await rm(root, { recursive: true, force: true });
clearInterval(sampler);
