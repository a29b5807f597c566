/**
 * BM25 as the workbench scores it, written once: Okapi BM25 with Lucene's idf,
 * log(1 + (N - df + 0.5) / (df + 0.5)), which never goes negative (FTS5's own idf goes to nothing for
 * a term in half the chunks or more). The memory index and the PostgreSQL store score with these
 * functions; the embedded store evaluates the same formula inside SQLite from FTS5's bm25() (see
 * `SqliteIndexStore.lexical`: handing every matched row to JavaScript cost ~1 µs a row), and a test
 * holds its scores to these.
 */

export interface Bm25Params {
  k1: number;
  b: number;
}

/**
 * Measured on SciFact (docs/benchmarks.md): k1 = 1.2 with the current text analysis (1.5 was best
 * before compounds and Greek letters were added; 1.0 and 1.35 lower); b the standard 0.75 (0.6 lower).
 * FTS5's bm25() uses the same two values (its built-in constants).
 */
export const DEFAULT_BM25: Bm25Params = { k1: 1.2, b: 0.75 };

/** A term's weight among `chunks` chunks when `df` of them hold it: rare terms weigh more. */
export function luceneIdf(chunks: number, df: number): number {
  return Math.log(1 + (chunks - df + 0.5) / (df + 0.5));
}

/** One term's share of a chunk's score: its weight, saturated by its count `tf` and normalised by the chunk's length. */
export function termScore(idf: number, tf: number, length: number, avgLength: number, { k1, b }: Bm25Params = DEFAULT_BM25): number {
  return (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / avgLength));
}
