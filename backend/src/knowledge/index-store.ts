/**
 * What the knowledge base needs of the place its index lives: the embedded SQLite file
 * (sqlite-index-store.ts, answers at once) or a PostgreSQL server (postgres-index-store.ts, answers later).
 * Both keep chunks, their BM25 terms, vectors and document state, write a document in one
 * transaction, and score BM25 the same way; callers await every answer.
 */
import type { VectorFormat } from "./sparse-vector.js";
import type { Scored } from "./top-k.js";

export type Awaitable<T> = T | Promise<T>;

export interface StoredChunk {
  id: number;
  /** Data-root-relative, e.g. `knowledge/notes/a.md`. */
  path: string;
  index: number;
  line: number;
  text: string;
}

export interface DocumentRow {
  path: string;
  size: number;
  mtimeMs: number;
  chunks: number;
  /** Why the document is not indexed (unreadable, too large, too slow); retried when it changes. */
  reason: string | null;
}

export interface NewChunk {
  index: number;
  line: number;
  text: string;
  /** The chunk's BM25 terms joined by spaces. */
  terms: string;
}

export interface VectorSpace {
  embedder: string;
  format: VectorFormat;
}

export type DocumentVersion = Pick<DocumentRow, "path" | "size" | "mtimeMs">;

export interface IndexStore {
  meta(key: string): Awaitable<string | null>;
  documents(): Awaitable<DocumentRow[]>;
  chunkCount(): Awaitable<number>;
  /** A document at its new version, in one transaction (its old chunks go, the new ones come). */
  writeDocument(doc: DocumentVersion, chunks: NewChunk[], vectors: { space: VectorSpace; rows: Float32Array[] } | null): Awaitable<void>;
  /** A document that could not be read: no chunks, its reason kept. */
  failDocument(doc: DocumentVersion, reason: string): Awaitable<void>;
  removeDocument(path: string): Awaitable<void>;
  /** Everything goes (a rebuild, or another text analysis). */
  clear(textAnalysis: number): Awaitable<void>;
  preparedFor(textAnalysis: number, space: VectorSpace): Awaitable<boolean>;
  /** Vectors belong to one embedder: another one's are dropped. */
  useVectorSpace(space: VectorSpace): Awaitable<void>;
  markVectorsComplete(): Awaitable<void>;
  vectorsMayBeMissing(): Awaitable<boolean>;
  vectorSpace(): Awaitable<VectorSpace | null>;
  /** Vectors for chunks that still exist; none when the embedder changed meanwhile. How many were stored. */
  storeVectors(space: VectorSpace, rows: Array<{ id: number; vector: Float32Array }>): Awaitable<number>;
  missingVectors(limit: number): Awaitable<StoredChunk[]>;
  /** BM25 (k1 1.2, b 0.75, Lucene's idf) over the chunks' terms: the best `limit`, best first. */
  lexical(terms: string[], limit: number): Awaitable<Scored[]>;
  /** How many of BM25's best the hybrid scores by vector. */
  hybridCandidates(): Awaitable<number>;
  /** log(1 + (N - df + 0.5) / (df + 0.5)) of each term. */
  idf(terms: string[]): Awaitable<Map<string, number>>;
  /** The similarity of each of these chunks' vectors to the query, best first. */
  vectorScores(ids: number[], query: Float32Array, limit: number): Awaitable<Scored[]>;
  /** The chunks nearest the query vector (vector-only queries). */
  scanVectors(query: Float32Array, limit: number): Awaitable<Scored[]>;
  chunks(ids: number[]): Awaitable<Map<number, StoredChunk>>;
  chunksOf(path: string): Awaitable<StoredChunk[]>;
  /** These chunks' stored vectors as dense ones (to copy an index without embedding again). */
  vectorsOf(ids: number[]): Awaitable<Map<number, Float32Array>>;
  close(): Awaitable<void>;
}

/** A term in more than one chunk in this many is common (see the stores' `lexical`). */
export const COMMON_SHARE = 20;
/** Below this many chunks every query is scored over all its matches with every term (it is cheap there, and exact). */
export const TWO_PHASE_FROM = 20_000;
