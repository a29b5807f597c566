import { memoByKey } from "../lib/memo-by-key.js";
import { textWords } from "./text-terms.js";

export const OFFLINE_DIMENSIONS = 2048;

/** Feature weights, tuned on BEIR SciFact (docs/benchmarks.md). */
const WORD_WEIGHT = 1;
const PAIR_WEIGHT = 1.5;
const TRIGRAM_WEIGHT = 1;

/** FNV-1a, 32 bit: a fast, stable hash for feature hashing. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A word's own features (the word, its character trigrams), made once per word and kept: a chunk
 * repeats its words, and so does a corpus. Kept strings keep their hash in V8, so the feature
 * counts below look each one up without building or hashing it again.
 */
const featuresOf = memoByKey((term) => {
  const padded = `<${term}>`;
  const trigrams: string[] = [];
  if (padded.length > 4) for (let j = 0; j + 3 <= padded.length; j++) trigrams.push(`c:${padded.slice(j, j + 3)}`);
  return { word: `w:${term}`, trigrams };
}, 200_000);

/**
 * An embedder that needs no model and no download: signed feature hashing of stemmed words,
 * adjacent word pairs and character trigrams of each word into 2,048 dimensions, with sublinear
 * counts, L2-normalized. Lexical rather than semantic, but it matches across word forms and
 * phrasing that exact BM25 terms miss, which is what it adds in the hybrid.
 *
 * Document vectors are stateless (they never need recomputing when other documents change).
 * Queries can pass `termWeight` (the live IDF of each term) so rare words count for more: IDF
 * applied on the query side only.
 */
export function offlineEmbed(text: string, termWeight: (term: string) => number = () => 1, dims = OFFLINE_DIMENSIONS): Float32Array {
  const features = new Map<string, { n: number; weight: number }>();
  const add = (feature: string, weight: number) => {
    const seen = features.get(feature);
    if (seen) seen.n++;
    else features.set(feature, { n: 1, weight });
  };
  const terms = textWords(text.toLowerCase());
  const weights = terms.map(termWeight);
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i];
    const own = featuresOf(term);
    add(own.word, WORD_WEIGHT * weights[i]);
    if (i + 1 < terms.length) add(`b:${term} ${terms[i + 1]}`, PAIR_WEIGHT * Math.sqrt(weights[i] * weights[i + 1]));
    for (const trigram of own.trigrams) add(trigram, TRIGRAM_WEIGHT * weights[i]);
  }
  const vector = new Float32Array(dims);
  for (const [feature, { n, weight }] of features) {
    const hash = fnv1a(feature);
    vector[hash % dims] += (hash & 0x80000000 ? -1 : 1) * weight * (1 + Math.log(n));
  }
  let norm = 0;
  for (let i = 0; i < dims; i++) norm += vector[i] * vector[i];
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < dims; i++) vector[i] /= norm;
  return vector;
}
