/**
 * Which of a query's terms BM25 reads, and how many postings of each: one policy for both stores.
 *
 * Below TWO_PHASE_FROM chunks every term is read whole (exact, and cheap there). Past it, a term in
 * more than one chunk in COMMON_SHARE (a common word of the corpus) matches tens of thousands of
 * chunks and adds little to any score, about the same to each: a query that has rarer terms is
 * matched on those alone. A query made only of common words reads its rarest words while their
 * postings stay within COMMON_POSTINGS together (at least the rarest one, and of that one at most
 * COMMON_POSTINGS postings, in the order the store keeps them): without that cap such a query read
 * every posting of every word, 2.7 s at 200,000 chunks. A query's first MAX_QUERY_TERMS distinct terms count.
 */
import { COMMON_SHARE, TWO_PHASE_FROM } from "./index-store.js";

/** Distinct terms scored at most (the first ones of a query; each is a branch of one statement). */
export const MAX_QUERY_TERMS = 200;
/** Postings read at most for a query made only of common words. */
export const COMMON_POSTINGS = 40_000;

export interface ScoredTerm {
  term: string;
  /** Postings to read at most; null: all of them. */
  cap: number | null;
}

/** A query's terms as the stores score them: each once, none empty, the first MAX_QUERY_TERMS. */
export function queryTerms(terms: string[]): string[] {
  return [...new Set(terms)].filter((t) => t !== "").slice(0, MAX_QUERY_TERMS);
}

/** `unique`: `queryTerms`' output; `df`: each term's document frequency (may be a little stale: it only chooses). */
export function scoredTerms(unique: string[], df: Map<string, number>, chunks: number): ScoredTerm[] {
  const all = (terms: string[]) => terms.map((term) => ({ term, cap: null }));
  if (chunks < TWO_PHASE_FROM) return all(unique);
  const rare = unique.filter((t) => (df.get(t) ?? 0) <= chunks / COMMON_SHARE);
  if (rare.length > 0) return all(rare);
  const byRarity = [...unique].sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0) || (a < b ? -1 : 1));
  const chosen: ScoredTerm[] = [];
  let postings = 0;
  for (const term of byRarity) {
    const n = df.get(term) ?? 0;
    if (chosen.length > 0 && postings + n > COMMON_POSTINGS) break;
    chosen.push({ term, cap: n > COMMON_POSTINGS ? COMMON_POSTINGS : null });
    postings += n;
  }
  return chosen;
}
