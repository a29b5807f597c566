/**
 * Tunes the hybrid fusion on half of SciFact's test queries only, and reports the other half and the
 * train queries, which nothing here looks at while choosing. Reads what `SCIFACT_RUNS=file
 * bench:knowledge` wrote: per query, BM25's candidates and their vector scores, by chunk.
 * Run: npx tsx bench/fusion-tuning.ts runs.json
 */
import { readFileSync } from "node:fs";
import { DEFAULT_ALPHA, fuseScores } from "../src/knowledge/fusion.js";
import type { Scored } from "../src/knowledge/top-k.js";
import { mean, pairedInterval } from "./bootstrap.js";

type Qrels = Record<string, Record<string, number>>;
interface Runs {
  runs: Record<string, { lexical: Array<[number, number]>; vector: Array<[number, number]> }>;
  chunkDocs: Record<string, string>;
  test: Qrels;
  train: Qrels;
}

const file = process.argv[2];
if (!file) {
  console.error("usage: tsx bench/fusion-tuning.ts runs.json");
  process.exit(1);
}
const data = JSON.parse(readFileSync(file, "utf8")) as Runs;
const SIDE_LIMIT = 100;

function ndcg10(ranked: string[], rel: Record<string, number>): number {
  let dcg = 0;
  ranked.slice(0, 10).forEach((d, i) => (dcg += (2 ** (rel[d] ?? 0) - 1) / Math.log2(i + 2)));
  let idcg = 0;
  Object.values(rel)
    .sort((a, b) => b - a)
    .slice(0, 10)
    .forEach((r, i) => (idcg += (2 ** r - 1) / Math.log2(i + 2)));
  return idcg > 0 ? dcg / idcg : 0;
}

function docs(hits: Scored[]): string[] {
  const seen = new Set<string>();
  for (const h of hits) seen.add(data.chunkDocs[h.id]);
  return [...seen];
}

const asScored = (pairs: Array<[number, number]>): Scored[] => pairs.map(([id, score]) => ({ id, score }));

/** nDCG@10 of the hybrid with weight `alpha` over these queries. */
function score(queries: string[], qrels: Qrels, alpha: number): number[] {
  return queries.map((q) => {
    const run = data.runs[q];
    const fused = fuseScores(asScored(run.lexical).slice(0, SIDE_LIMIT), asScored(run.vector).slice(0, SIDE_LIMIT), alpha);
    return ndcg10(docs(fused), qrels[q]);
  });
}

const testQueries = Object.keys(data.test);
// The halves: alternate queries in the file's order (ids ascending), so both cover the whole range.
const tune = testQueries.filter((_, i) => i % 2 === 0);
const heldOut = testQueries.filter((_, i) => i % 2 === 1);
const train = Object.keys(data.train);

console.log(`tuning on ${tune.length} test queries; held out: ${heldOut.length} test queries and ${train.length} train queries`);
console.log("alpha   tune    held-out  train");
let best = { alpha: 0, value: -1 };
for (let alpha = 0.3; alpha <= 0.951; alpha += 0.05) {
  const value = mean(score(tune, data.test, alpha));
  if (value > best.value + 1e-9) best = { alpha, value };
  console.log(`${alpha.toFixed(2)}    ${value.toFixed(4)}  ${mean(score(heldOut, data.test, alpha)).toFixed(4)}    ${mean(score(train, data.train, alpha)).toFixed(4)}`);
}
// A new weight replaces the one in use only where the tuning half can tell them apart.
const inUse = score(tune, data.test, DEFAULT_ALPHA);
const diffs = score(tune, data.test, best.alpha).map((v, i) => v - inUse[i]);
const [low, high] = pairedInterval(diffs);
const better = low > 0;
console.log(
  `best on the tuning half: alpha ${best.alpha.toFixed(2)}, ${mean(diffs).toFixed(4)} over the alpha in use (${DEFAULT_ALPHA}), 95% interval [${low.toFixed(4)}, ${high.toFixed(4)}]: ` +
    (better ? `alpha ${best.alpha.toFixed(2)} is better` : `not told apart, alpha ${DEFAULT_ALPHA} stays`),
);
