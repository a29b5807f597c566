import type { Scored } from "./top-k.js";

/**
 * Hybrid fusion: a convex combination of min-max normalized scores,
 * hybrid = alpha * bm25' + (1 - alpha) * vector', over the union of both candidate lists
 * (a candidate missing from one list gets 0 there). Min-max keeps each list's score shape,
 * which rank-only fusion (RRF) throws away. Alpha is tuned on half of SciFact's test queries only
 * (bench/fusion-tuning.ts: 0.6, better than the 0.7 before on that half beyond its bootstrap
 * interval), and reported on the other half and the train queries (docs/benchmarks.md).
 */
export const DEFAULT_ALPHA = 0.6;

function normalized(list: Scored[]): Map<number, number> {
  const out = new Map<number, number>();
  if (list.length === 0) return out;
  const max = list[0].score;
  const min = list[list.length - 1].score;
  const span = max - min;
  for (const { id, score } of list) out.set(id, span > 0 ? (score - min) / span : 1);
  return out;
}

export function fuseScores(lexical: Scored[], vector: Scored[], alpha = DEFAULT_ALPHA): Scored[] {
  const a = normalized(lexical);
  const b = normalized(vector);
  const ids = new Set([...a.keys(), ...b.keys()]);
  return [...ids]
    .map((id) => ({ id, score: alpha * (a.get(id) ?? 0) + (1 - alpha) * (b.get(id) ?? 0) }))
    .sort((x, y) => y.score - x.score || x.id - y.id);
}

/** Reciprocal rank fusion, kept for comparison in the benchmark. */
export function reciprocalRankFusion(lists: Scored[][], k = 60): Scored[] {
  const scores = new Map<number, number>();
  for (const list of lists) list.forEach(({ id }, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank + 1)));
  return [...scores].map(([id, score]) => ({ id, score })).sort((x, y) => y.score - x.score || x.id - y.id);
}
