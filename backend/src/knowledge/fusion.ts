import type { Scored } from "./top-k.js";

/**
 * Hybrid fusion: a convex combination of min-max normalized scores,
 * hybrid = alpha * bm25' + (1 - alpha) * vector', over the union of both candidate lists
 * (a candidate missing from one list gets 0 there). Min-max keeps each list's score shape,
 * which rank-only fusion (RRF) throws away; measured on SciFact in docs/benchmarks.md (alpha 0.7
 * best with the current BM25; 0.6 before).
 */
export const DEFAULT_ALPHA = 0.7;

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
