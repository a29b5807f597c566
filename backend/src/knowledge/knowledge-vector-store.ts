/**
 * The knowledge store as a LlamaIndex vector store: `BaseVectorStore` over the index (the embedded
 * SQLite file or a PostgreSQL server, index-store.ts), so
 * LlamaIndex retrievers and query engines work over the same chunks the agent searches, and the
 * workbench's own search goes through it too. Modes: SPARSE (BM25 over FTS5), DEFAULT (vectors, an
 * exact scan) and HYBRID (BM25's candidates scored by both, fused with min-max weights), each one of
 * hybrid-search.ts's searches. Loaded only by callers that want LlamaIndex (`KnowledgeBase.llamaIndexStore`).
 *
 * Nodes are chunks: a node's id is the chunk's id, its metadata `path`, `index` and `line` (and in
 * results, each side's score as `bm25` and `vector`). `add` groups nodes by their `path` (or
 * reference document) and writes each document in one transaction.
 */
import { BaseEmbedding } from "@llamaindex/core/embeddings";
import { type BaseNode, MetadataMode, TextNode } from "@llamaindex/core/schema";
import { BaseVectorStore, type VectorStoreQuery, VectorStoreQueryMode, type VectorStoreQueryResult } from "@llamaindex/core/vector-store";
import type { Embedder } from "./embedders.js";
import { type ChunkSearchMode, embedQuery, searchChunks } from "./hybrid-search.js";
import type { IndexStore } from "./index-store.js";
import { textTerms } from "./text-terms.js";

/** LlamaIndex's query modes, as the store's searches. */
const MODES: Partial<Record<VectorStoreQueryMode, ChunkSearchMode>> = {
  [VectorStoreQueryMode.SPARSE]: "bm25",
  [VectorStoreQueryMode.DEFAULT]: "vector",
  [VectorStoreQueryMode.HYBRID]: "hybrid",
};

/**
 * Our embedder of the moment as LlamaIndex's embedding model (the user may switch endpoints while the
 * store lives); queries weigh their terms by the store's IDF.
 */
export class KnowledgeEmbedding extends BaseEmbedding {
  constructor(
    private readonly embedder: () => Embedder,
    private readonly store: () => IndexStore,
  ) {
    super();
  }

  async getTextEmbedding(text: string): Promise<number[]> {
    return Array.from((await this.embedder().embedDocuments([text]))[0]);
  }

  override getTextEmbeddings = async (texts: string[]): Promise<number[][]> => (await this.embedder().embedDocuments(texts)).map((v) => Array.from(v));

  override async getQueryEmbedding(query: unknown): Promise<number[] | null> {
    const text = typeof query === "string" ? query : (query as { type?: string; text?: string }).type === "text" ? ((query as { text: string }).text ?? "") : null;
    if (text === null) return null;
    return Array.from(await embedQuery(this.embedder(), this.store(), text));
  }
}

export interface KnowledgeQueryParams {
  /** How many of BM25's best the hybrid scores by vector (default: the store's `hybridCandidates()`). */
  candidates?: number;
}

export class KnowledgeVectorStore extends BaseVectorStore<IndexStore, KnowledgeQueryParams> {
  storesText = true;

  constructor(
    private readonly store: () => IndexStore,
    embedder: () => Embedder,
  ) {
    super({ embedModel: new KnowledgeEmbedding(embedder, store) });
  }

  client(): IndexStore {
    return this.store();
  }

  async add(nodes: BaseNode[]): Promise<string[]> {
    const store = this.store();
    const space = await store.vectorSpace();
    const byDocument = new Map<string, BaseNode[]>();
    for (const node of nodes) {
      const path = String(node.metadata.path ?? node.sourceNode?.nodeId ?? node.id_);
      byDocument.set(path, [...(byDocument.get(path) ?? []), node]);
    }
    for (const [path, group] of byDocument) {
      const chunks = group.map((node, i) => {
        const text = node.getContent(MetadataMode.NONE);
        return { index: Number(node.metadata.index ?? i), line: Number(node.metadata.line ?? 1), text, terms: textTerms(text).join(" ") };
      });
      const embedded = space !== null && group.every((node) => node.embedding !== undefined && node.embedding.length > 0);
      await store.writeDocument(
        { path, size: 0, mtimeMs: 0 },
        chunks,
        embedded ? { space: space!, rows: group.map((node) => Float32Array.from(node.getEmbedding())) } : null,
      );
    }
    const ids: string[] = [];
    for (const path of byDocument.keys()) ids.push(...(await store.chunksOf(path)).map((c) => String(c.id)));
    return ids;
  }

  async delete(refDocId: string): Promise<void> {
    await this.store().removeDocument(refDocId);
  }

  async query(query: VectorStoreQuery<KnowledgeQueryParams>): Promise<VectorStoreQueryResult> {
    const mode = MODES[query.mode];
    if (!mode) throw new Error(`query mode ${query.mode} is not supported by the knowledge store`);
    if (mode === "vector" && !query.queryEmbedding) throw new Error("a vector query needs queryEmbedding");
    const hits = await searchChunks(this.store(), {
      mode,
      query: query.queryStr ?? "",
      embedding: query.queryEmbedding ? Float32Array.from(query.queryEmbedding) : null,
      limit: query.similarityTopK,
      alpha: query.alpha,
      candidates: query.customParams?.candidates,
    });
    return {
      ids: hits.map((h) => String(h.id)),
      similarities: hits.map((h) => h.score),
      nodes: hits.map(
        (h) =>
          new TextNode({
            id_: String(h.id),
            text: h.chunk.text,
            metadata: { path: h.chunk.path, index: h.chunk.index, line: h.chunk.line, bm25: h.bm25, vector: h.vector },
          }),
      ),
    };
  }
}
