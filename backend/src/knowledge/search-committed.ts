/**
 * A knowledge search as the tool and the API answer it, over what the store has committed: hybrid
 * when the store's vectors are the embedder's, BM25 alone otherwise (and the note says why), results
 * whose document is gone from the folder left out. It reads; it never indexes (knowledge-base.ts
 * decides whether the folder is synced first).
 */
import type { KnowledgeHit, KnowledgeSearchReply } from "@mini-openclaw/protocol";
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { Embedder } from "./embedders.js";
import { DEFAULT_ALPHA } from "./fusion.js";
import { embedQuery, searchChunks } from "./hybrid-search.js";
import type { IndexStore } from "./index-store.js";

export interface CommittedIndex {
  reader: IndexStore;
  embedder: Embedder;
  /** Why the last embedding of documents failed, if it did (BM25 answers meanwhile). */
  embedError: string | null;
  chunks: number;
  /** The data root whose documents a hit must still exist in; null: a collection another workbench indexes (as committed). */
  dataRoot: string | null;
  indexing: boolean;
}

export async function searchCommitted(index: CommittedIndex, query: string, k: number): Promise<KnowledgeSearchReply> {
  const { reader, embedder, dataRoot } = index;
  let note = index.embedError ? `vector search unavailable (${index.embedError}); results are from BM25 alone` : null;
  let queryEmbedding: Float32Array | null = null;
  if ((await reader.vectorSpace())?.embedder === embedder.id && index.chunks > 0) {
    try {
      queryEmbedding = await embedQuery(embedder, reader, query);
    } catch (err) {
      note = `vector search unavailable (${(err as Error).message}); results are from BM25 alone`;
    }
  }
  const hits = await searchChunks(reader, { mode: queryEmbedding ? "hybrid" : "bm25", query, embedding: queryEmbedding, limit: k * 3, alpha: DEFAULT_ALPHA });
  // Documents deleted since the last sync with the folder are never returned (the folder this workbench
  // indexes; a shared collection another workbench indexes is as that one committed it).
  const paths = [...new Set(hits.map((h) => h.chunk.path))];
  const present =
    dataRoot !== null
      ? new Set((await Promise.all(paths.map((p) => lstat(join(dataRoot, p)).then((info) => (info.isFile() ? p : null), () => null)))).filter((p): p is string => p !== null))
      : new Set(paths);
  const results: KnowledgeHit[] = [];
  for (const hit of hits) {
    if (results.length >= k) break;
    if (!present.has(hit.chunk.path)) continue;
    results.push({
      source: hit.chunk.path,
      chunk: hit.chunk.index,
      line: hit.chunk.line,
      score: Number(hit.score.toFixed(4)),
      bm25: hit.bm25 === null ? null : Number(hit.bm25.toFixed(4)),
      vector: hit.vector === null ? null : Number(hit.vector.toFixed(4)),
      text: hit.chunk.text,
    });
  }
  return { mode: queryEmbedding ? "hybrid" : "bm25", embedder: embedder.label, note, indexing: index.indexing, results };
}
