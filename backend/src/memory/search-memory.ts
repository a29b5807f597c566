/**
 * Search over the agent's memory, as OpenClaw's memory search: MEMORY.md and every daily log, cut
 * into short passages, ranked by BM25 (fused with vectors when an embedding endpoint is set), each
 * with its file and line. Memory is small, so the index is made per search from the files as they are
 * (never stale); vectors are kept by passage text, so a passage is embedded once.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { Bm25Index } from "../knowledge/bm25-index.js";
import { chunkText } from "../knowledge/chunk-text.js";
import type { Embedder } from "../knowledge/embedders.js";
import { fuseScores } from "../knowledge/fusion.js";
import { textTerms } from "../knowledge/text-terms.js";
import { isUnreadable, readConfinedText } from "../paths/read-confined-file.js";
import { LOGS_DIR } from "./daily-log.js";

export const MEMORY_FILE = "memory/MEMORY.md";
/** Daily logs read at most (newest first): years of days. */
const MAX_LOGS = 2_000;
const MAX_FILE_BYTES = 1024 * 1024;
/** Passages short enough to point at one fact (a daily log's line is one). */
const PASSAGE = { size: 600, overlap: 60 };

export interface MemoryHit {
  /** Data-root-relative path. */
  path: string;
  line: number;
  text: string;
  score: number;
}

/** The memory files: MEMORY.md, then the daily logs (regular files named YYYY-MM-DD.md), newest first. */
export async function memoryFiles(dataRoot: string): Promise<string[]> {
  const entries = await readdir(join(dataRoot, LOGS_DIR), { withFileTypes: true }).catch(() => []);
  const logs = entries
    .filter((e) => e.isFile() && /^\d{4}-\d{2}-\d{2}\.md$/.test(e.name))
    .map((e) => `${LOGS_DIR}/${e.name}`)
    .sort()
    .reverse()
    .slice(0, MAX_LOGS);
  return [MEMORY_FILE, ...logs];
}

const vectorCache = new Map<string, Float32Array>();
const VECTOR_CACHE_MAX = 20_000;

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length && i < b.length; i++) dot += a[i] * b[i];
  return dot;
}

export async function searchMemory(dataRoot: string, query: string, k: number, embedder: Embedder | null): Promise<{ hits: MemoryHit[]; files: number; mode: "bm25" | "hybrid" }> {
  const passages: Array<{ path: string; line: number; text: string }> = [];
  const paths = await memoryFiles(dataRoot);
  let files = 0;
  for (const path of paths) {
    let text: string;
    try {
      text = (await readConfinedText(dataRoot, path, MAX_FILE_BYTES)).content;
    } catch (err) {
      if (isUnreadable(err)) continue; // missing, a link, not a file: not memory
      throw err;
    }
    files++;
    for (const chunk of chunkText(text, 1, PASSAGE)) if (chunk.text.trim()) passages.push({ path, line: chunk.line, text: chunk.text.trim() });
  }
  const index = new Bm25Index();
  passages.forEach((p, id) => index.add(id, textTerms(p.text)));
  const lexical = index.search(textTerms(query), Math.max(k * 4, 20));
  let ranked = lexical;
  let mode: "bm25" | "hybrid" = "bm25";
  if (embedder && embedder.mode === "openai" && passages.length > 0) {
    try {
      const missing = passages.filter((p) => !vectorCache.has(p.text));
      if (missing.length) {
        const vectors = await embedder.embedDocuments(missing.map((p) => p.text));
        missing.forEach((p, i) => vectorCache.set(p.text, vectors[i]));
        while (vectorCache.size > VECTOR_CACHE_MAX) vectorCache.delete(vectorCache.keys().next().value as string);
      }
      const q = await embedder.embedQuery(query, () => 1);
      const vector = passages.map((p, id) => ({ id, score: cosine(q, vectorCache.get(p.text)!) })).sort((a, b) => b.score - a.score).slice(0, Math.max(k * 4, 20));
      ranked = fuseScores(lexical, vector);
      mode = "hybrid";
    } catch {
      // The embedding endpoint failed: BM25 alone still answers.
    }
  }
  const hits = ranked.slice(0, k).map(({ id, score }) => ({ ...passages[id], score: Math.round(score * 1000) / 1000 }));
  return { hits, files, mode };
}
