/**
 * Okapi BM25 over chunks, with incremental add and remove. Scores use the Lucene form of idf,
 * log(1 + (N - df + 0.5) / (df + 0.5)), which never goes negative.
 */
export interface Bm25Params {
  k1: number;
  b: number;
}

/** k1 = 1.5 measured best on SciFact among 0.9-1.5 (docs/benchmarks.md); b is the standard 0.75. */
export const DEFAULT_BM25: Bm25Params = { k1: 1.5, b: 0.75 };

export interface Bm25Json {
  params: Bm25Params;
  docs: Array<[number, Array<[string, number]>]>;
}

export interface Scored {
  id: number;
  score: number;
}

export class Bm25Index {
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly docTerms = new Map<number, Map<string, number>>();
  private readonly lengths = new Map<number, number>();
  private totalLength = 0;

  constructor(readonly params: Bm25Params = DEFAULT_BM25) {}

  get size(): number {
    return this.docTerms.size;
  }

  add(id: number, terms: string[]): void {
    if (this.docTerms.has(id)) this.remove(id);
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    this.docTerms.set(id, counts);
    this.lengths.set(id, terms.length);
    this.totalLength += terms.length;
    for (const [term, tf] of counts) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = new Map()));
      list.set(id, tf);
    }
  }

  remove(id: number): void {
    const counts = this.docTerms.get(id);
    if (!counts) return;
    for (const [term, tf] of counts) {
      this.totalLength -= tf;
      const list = this.postings.get(term);
      list?.delete(id);
      if (list?.size === 0) this.postings.delete(term);
    }
    this.docTerms.delete(id);
    this.lengths.delete(id);
  }

  /** Document frequency of a term: how many chunks contain it. */
  df(term: string): number {
    return this.postings.get(term)?.size ?? 0;
  }

  /** Inverse document frequency, log(1 + (N - df + 0.5) / (df + 0.5)): rare terms weigh more. */
  idf(term: string): number {
    const df = this.df(term);
    return Math.log(1 + (this.docTerms.size - df + 0.5) / (df + 0.5));
  }

  search(queryTerms: string[], limit: number): Scored[] {
    const n = this.docTerms.size;
    if (n === 0) return [];
    const avgLength = this.totalLength / n;
    const { k1, b } = this.params;
    const scores = new Map<number, number>();
    for (const term of new Set(queryTerms)) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = this.idf(term);
      for (const [id, tf] of list) {
        const norm = tf + k1 * (1 - b + (b * this.lengths.get(id)!) / avgLength);
        scores.set(id, (scores.get(id) ?? 0) + (idf * tf * (k1 + 1)) / norm);
      }
    }
    return topK(scores, limit);
  }

  /** Compact form for storage: each chunk's term counts. Postings are rebuilt on load. */
  toJSON(): Bm25Json {
    return { params: this.params, docs: [...this.storedDocs()] };
  }

  /** The `docs` of the stored form one by one, so a large index can be written in slices. */
  *storedDocs(): Generator<[number, Array<[string, number]>]> {
    for (const [id, counts] of this.docTerms) yield [id, [...counts]];
  }

  static fromJSON(data: Bm25Json): Bm25Index {
    const index = new Bm25Index(data.params);
    for (const [id, counts] of data.docs) {
      const map = new Map(counts);
      index.docTerms.set(id, map);
      let length = 0;
      for (const [term, tf] of map) {
        length += tf;
        index.totalLength += tf;
        let list = index.postings.get(term);
        if (!list) index.postings.set(term, (list = new Map()));
        list.set(id, tf);
      }
      index.lengths.set(id, length);
    }
    return index;
  }
}

export function topK(scores: Map<number, number>, limit: number): Scored[] {
  return [...scores]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, limit);
}
