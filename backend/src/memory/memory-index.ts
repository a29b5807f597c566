/**
 * Memory search's index, off the server's thread: MEMORY.md and the daily logs are written by the
 * agent (and so by anything that turned it), so they are read, cut into passages and indexed in a
 * worker thread (memory-index-thread.ts), incrementally (a file is read again only when its size or
 * change time moved), within caps on files, bytes and line length, under a deadline. BM25 there;
 * with an embedding endpoint, the best BM25 candidates are rescored by vector here (the endpoint is
 * a network call, not work on this thread).
 */
import type { Embedder } from "../knowledge/embedders.js";
import { fuseScores } from "../knowledge/fusion.js";
import { JobWorker } from "../workers/job-worker.js";

/** Daily logs read at most (newest first): years of days. */
export const MAX_LOGS = 2_000;
/** Bytes read of one memory file. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** Bytes of memory indexed in all (newest first); older logs past it are left out, and the result says so. */
export const MAX_TOTAL_BYTES = 32 * 1024 * 1024;
/** A line longer than this is cut (a passage points at one fact; a megabyte on one line is not one). */
export const MAX_LINE_CHARS = 4_000;
const SEARCH_DEADLINE_MS = 30_000;

export interface MemoryHit {
  /** Data-root-relative path. */
  path: string;
  line: number;
  text: string;
  score: number;
}

export type MemoryJob = { kind: "search"; dataRoot: string; query: string; limit: number };
export interface MemoryReply {
  hits: MemoryHit[];
  files: number;
  /** Why some memory was not searched (the caps), or null. */
  leftOut: string | null;
}

export interface MemorySearchResult {
  hits: MemoryHit[];
  files: number;
  mode: "bm25" | "hybrid";
  leftOut: string | null;
}

const VECTOR_CACHE_MAX = 20_000;

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length && i < b.length; i++) dot += a[i] * b[i];
  return dot;
}

export class MemoryIndex {
  private readonly jobs = new JobWorker<MemoryJob, MemoryReply>({ module: "./memory-index-thread", base: import.meta.url, name: "memory search", resourceLimits: { maxOldGenerationSizeMb: 768 } });
  /** Vectors by passage text, so a passage is embedded once. */
  private readonly vectors = new Map<string, Float32Array>();

  constructor(private readonly dataRoot: string) {}

  async search(query: string, k: number, embedder: Embedder | null): Promise<MemorySearchResult> {
    const outcome = await this.jobs.run({ kind: "search", dataRoot: this.dataRoot, query, limit: Math.max(k * 4, 20) }, SEARCH_DEADLINE_MS);
    if (!outcome.ok) throw new Error(outcome.timedOut ? `reading and indexing the memory files took over ${SEARCH_DEADLINE_MS / 1000} s; it was stopped` : outcome.reason);
    const { hits: lexical, files, leftOut } = outcome.reply;
    let ranked = lexical;
    let mode: MemorySearchResult["mode"] = "bm25";
    if (embedder && embedder.mode === "openai" && lexical.length > 0) {
      try {
        const missing = lexical.filter((h) => !this.vectors.has(h.text));
        if (missing.length) {
          const vectors = await embedder.embedDocuments(missing.map((h) => h.text));
          missing.forEach((h, i) => this.vectors.set(h.text, vectors[i]));
          while (this.vectors.size > VECTOR_CACHE_MAX) this.vectors.delete(this.vectors.keys().next().value as string);
        }
        const q = await embedder.embedQuery(query, () => 1);
        const byVector = lexical.map((h, id) => ({ id, score: cosine(q, this.vectors.get(h.text)!) })).sort((a, b) => b.score - a.score);
        const fused = fuseScores(lexical.map((h, id) => ({ id, score: h.score })), byVector);
        ranked = fused.map(({ id, score }) => ({ ...lexical[id], score }));
        mode = "hybrid";
      } catch {
        // The embedding endpoint failed: BM25 alone still answers.
      }
    }
    return { hits: ranked.slice(0, k).map((h) => ({ ...h, score: Math.round(h.score * 1000) / 1000 })), files, mode, leftOut };
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}
