/**
 * Searching the index's chunks: BM25 alone, vectors alone, or hybrid (BM25's candidates scored by
 * both, fused with min-max weights). Plain functions over an `IndexStore`: the workbench's own search
 * calls them directly, and the LlamaIndex vector store (knowledge-vector-store.ts) wraps them for
 * callers that want LlamaIndex, which is loaded only then (its import builds a tokenizer, ~0.2 s of
 * every start otherwise).
 */
import type { Embedder } from "./embedders.js";
import { DEFAULT_ALPHA, fuseScores } from "./fusion.js";
import type { IndexStore, StoredChunk } from "./index-store.js";
import { textTerms, textWords } from "./text-terms.js";
import type { Scored } from "./top-k.js";

/** Each side's list is at least this long, so fusion sees more than the few asked for. */
const SIDE_LIMIT = 100;

export type ChunkSearchMode = "bm25" | "vector" | "hybrid";

export interface ChunkSearch {
  mode: ChunkSearchMode;
  query: string;
  /** The query's vector; needed by "vector" and "hybrid" (without it, "hybrid" is BM25 alone). */
  embedding: Float32Array | null;
  limit: number;
  alpha?: number;
  /** How many of BM25's best the hybrid scores by vector (default: the store's `hybridCandidates()`). */
  candidates?: number;
}

export interface ChunkHit {
  id: number;
  score: number;
  chunk: StoredChunk;
  /** Each side's own score, null where the chunk was not on that side's list. */
  bm25: number | null;
  vector: number | null;
}

/** The best `limit` chunks for a query, best first (chunks gone from the store since are left out). */
export async function searchChunks(store: IndexStore, search: ChunkSearch): Promise<ChunkHit[]> {
  const { mode, query, embedding, limit } = search;
  let lexical: Scored[] = [];
  let vector: Scored[] = [];
  let fused: Scored[];
  if (mode === "bm25") {
    lexical = await store.lexical(textTerms(query), Math.max(limit, SIDE_LIMIT));
    fused = lexical;
  } else if (mode === "vector") {
    if (!embedding) throw new Error("a vector search needs the query's vector");
    vector = await store.scanVectors(embedding, Math.max(limit, SIDE_LIMIT));
    fused = vector;
  } else {
    const candidates = await store.lexical(textTerms(query), search.candidates ?? (await store.hybridCandidates()));
    lexical = candidates.slice(0, SIDE_LIMIT);
    if (embedding) vector = await store.vectorScores(candidates.map((c) => c.id), embedding, SIDE_LIMIT);
    fused = vector.length > 0 ? fuseScores(lexical, vector, search.alpha ?? DEFAULT_ALPHA) : lexical;
  }
  const top = fused.slice(0, limit);
  const chunks = await store.chunks(top.map((s) => s.id));
  const bm25 = new Map(lexical.map((s) => [s.id, s.score]));
  const vectors = new Map(vector.map((s) => [s.id, s.score]));
  return top.filter((s) => chunks.has(s.id)).map((s) => ({ id: s.id, score: s.score, chunk: chunks.get(s.id)!, bm25: bm25.get(s.id) ?? null, vector: vectors.get(s.id) ?? null }));
}

/**
 * A query's vector. The offline embedder weighs the words it hashes (textWords: Greek letters kept as
 * they are) by the store's IDF, so the IDF is of those; a word missing there would weigh 1, not its
 * IDF. An endpoint's embedder is asked without reading the store.
 */
export async function embedQuery(embedder: Embedder, store: IndexStore, text: string): Promise<Float32Array> {
  const idf = embedder.mode === "offline" ? await store.idf(textWords(text.toLowerCase())) : null;
  return embedder.embedQuery(text, (term) => idf?.get(term) ?? 1);
}
