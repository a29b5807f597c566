/**
 * The baseline the knowledge store is measured against: a plain BM25 over whole documents with
 * English analysed as Lucene's EnglishAnalyzer does it — UAX #29 words (StandardTokenizer; here
 * ICU's word segmenter), the possessive `'s` dropped, lower case, Lucene's 33 English stop words,
 * the Porter stemmer — and scored as Lucene's BM25Similarity (idf = ln(1 + (N − df + 0.5) / (df +
 * 0.5)), a query term counted once per occurrence). Written apart from the store on purpose: it
 * shares none of its code, so it cannot inherit its mistakes.
 */
import { stemmer } from "stemmer";

/** EnglishAnalyzer.ENGLISH_STOP_WORDS_SET. */
const LUCENE_STOP = new Set(
  "a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with".split(" "),
);
const words = new Intl.Segmenter("en", { granularity: "word" });
/** EnglishPossessiveFilter: a trailing 's (straight, curly or full-width apostrophe). */
const POSSESSIVE = /['\u2019\uff07][sS]$/;

export function luceneEnglishTerms(text: string): string[] {
  const out: string[] = [];
  for (const part of words.segment(text)) {
    if (!part.isWordLike) continue;
    const word = part.segment.replace(POSSESSIVE, "").toLowerCase();
    if (word === "" || LUCENE_STOP.has(word)) continue;
    out.push(stemmer(word));
  }
  return out;
}

export interface Bm25Params {
  k1: number;
  b: number;
}

/** An in-memory BM25 index over documents, each analysed once. */
export class StemmedBm25 {
  private readonly postings = new Map<string, Array<[number, number]>>();
  private readonly lengths: number[] = [];
  private readonly ids: string[] = [];
  private total = 0;

  add(id: string, text: string): void {
    const doc = this.ids.length;
    const terms = luceneEnglishTerms(text);
    const tf = new Map<string, number>();
    for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + 1);
    for (const [term, n] of tf) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = []));
      list.push([doc, n]);
    }
    this.ids.push(id);
    this.lengths.push(terms.length);
    this.total += terms.length;
  }

  /** The best `k` document ids for a query, best first. */
  search(query: string, k: number, { k1, b }: Bm25Params): string[] {
    const n = this.ids.length;
    const avg = this.total / n;
    const scores = new Map<number, number>();
    for (const term of luceneEnglishTerms(query)) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const [doc, tf] of list) {
        const norm = k1 * (1 - b + (b * this.lengths[doc]) / avg);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (k1 + 1)) / (tf + norm));
      }
    }
    return [...scores]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, k)
      .map(([doc]) => this.ids[doc]);
  }
}
