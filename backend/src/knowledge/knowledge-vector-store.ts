/**
 * The knowledge store as a LlamaIndex vector store: `BaseVectorStore` over the index (the embedded
 * SQLite file or a PostgreSQL server, index-store.ts), so
 * LlamaIndex retrievers and query engines work over the same chunks the agent searches, and the
 * workbench's own search goes through it too. Modes: SPARSE (BM25 over FTS5), DEFAULT (vectors, an
 * exact scan) and HYBRID (BM25's candidates scored by both, fused with min-max weights).
 *
 * Nodes are chunks: a node's id is the chunk's id, its metadata `path`, `index` and `line` (and in
 * results, each side's score as `bm25` and `vector`). `add` groups nodes by their `path` (or
 * reference document) and writes each document in one transaction.
 */
import { BaseEmbedding } from "@llamaindex/core/embeddings";
import { type BaseNode, MetadataMode, TextNode } from "@llamaindex/core/schema";
import { BaseVectorStore, type VectorStoreQuery, VectorStoreQueryMode, type VectorStoreQueryResult } from "@llamaindex/core/vector-store";
import type { Scored } from "./top-k.js";
import type { Embedder } from "./embedders.js";
import { DEFAULT_ALPHA, fuseScores } from "./fusion.js";
import type { IndexStore } from "./index-store.js";
import { textTerms, textWords } from "./text-terms.js";

const SIDE_LIMIT = 100;

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
    // The weights asked for are of the words the offline embedder hashes (textWords: Greek letters
    // kept as they are), so the IDF is of those; a word missing here would weigh 1, not its IDF.
    // Only the offline embedder weighs words: an endpoint's is asked without reading the store.
    const embedder = this.embedder();
    const idf = embedder.mode === "offline" ? await this.store().idf(textWords(text.toLowerCase())) : null;
    return Array.from(await embedder.embedQuery(text, (term) => idf?.get(term) ?? 1));
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
    const store = this.store();
    const limit = query.similarityTopK;
    const embedding = query.queryEmbedding ? Float32Array.from(query.queryEmbedding) : null;
    let lexical: Scored[] = [];
    let vector: Scored[] = [];
    let fused: Scored[];
    switch (query.mode) {
      case VectorStoreQueryMode.SPARSE:
        lexical = await store.lexical(textTerms(query.queryStr ?? ""), Math.max(limit, SIDE_LIMIT));
        fused = lexical;
        break;
      case VectorStoreQueryMode.DEFAULT:
        if (!embedding) throw new Error("a vector query needs queryEmbedding");
        vector = await store.scanVectors(embedding, Math.max(limit, SIDE_LIMIT));
        fused = vector;
        break;
      case VectorStoreQueryMode.HYBRID: {
        const candidates = await store.lexical(textTerms(query.queryStr ?? ""), query.customParams?.candidates ?? (await store.hybridCandidates()));
        lexical = candidates.slice(0, SIDE_LIMIT);
        if (embedding) vector = await store.vectorScores(candidates.map((c) => c.id), embedding, SIDE_LIMIT);
        fused = vector.length > 0 ? fuseScores(lexical, vector, query.alpha ?? DEFAULT_ALPHA) : lexical;
        break;
      }
      default:
        throw new Error(`query mode ${query.mode} is not supported by the knowledge store`);
    }
    const top = fused.slice(0, limit);
    const chunks = await store.chunks(top.map((s) => s.id));
    const bm25 = new Map(lexical.map((s) => [s.id, s.score]));
    const vectors = new Map(vector.map((s) => [s.id, s.score]));
    const kept = top.filter((s) => chunks.has(s.id));
    return {
      ids: kept.map((s) => String(s.id)),
      similarities: kept.map((s) => s.score),
      nodes: kept.map((s) => {
        const chunk = chunks.get(s.id)!;
        return new TextNode({
          id_: String(s.id),
          text: chunk.text,
          metadata: { path: chunk.path, index: chunk.index, line: chunk.line, bm25: bm25.get(s.id) ?? null, vector: vectors.get(s.id) ?? null },
        });
      }),
    };
  }
}
