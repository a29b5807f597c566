import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TextNode } from "@llamaindex/core/schema";
import { VectorStoreQueryMode } from "@llamaindex/core/vector-store";
import { Settings, VectorStoreIndex } from "llamaindex";
import { afterEach, describe, expect, it } from "vitest";
import { offlineEmbedder } from "./embedders.js";
import { KnowledgeBase } from "./knowledge-base.js";
import { SqliteIndexStore } from "./sqlite-index-store.js";
import { KnowledgeVectorStore } from "./knowledge-vector-store.js";
import { textWords } from "./text-terms.js";

let dir = "";
let store: SqliteIndexStore | null = null;
afterEach(async () => {
  store?.close();
  store = null;
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function openStore() {
  dir = await mkdtemp(join(tmpdir(), "moc-lvs-"));
  store = SqliteIndexStore.open(join(dir, "index.db"));
  store.useVectorSpace({ embedder: offlineEmbedder.id, format: "sparse-i8" });
  const s = store;
  return new KnowledgeVectorStore(() => s, () => offlineEmbedder);
}

const node = (path: string, index: number, text: string) => new TextNode({ text, metadata: { path, index, line: index + 1 } });

describe("the knowledge store as a LlamaIndex vector store", () => {
  it("takes LlamaIndex nodes (embedded by its embed model), one transaction per document, and deletes by document", async () => {
    const vectorStore = await openStore();
    const nodes = [node("knowledge/a.md", 0, "Sauerkraut is cabbage fermented by lactic acid bacteria."), node("knowledge/a.md", 1, "It keeps for months."), node("knowledge/b.md", 0, "A geostationary orbit takes one sidereal day.")];
    for (const n of nodes) n.embedding = await vectorStore.embedModel.getTextEmbedding(n.getText());
    const ids = await vectorStore.add(nodes);
    expect(ids).toHaveLength(3);
    expect(store!.documents().map((d) => [d.path, d.chunks]).sort()).toEqual([["knowledge/a.md", 2], ["knowledge/b.md", 1]]);
    expect(store!.vectorCount()).toBe(3);
    expect(store!.chunkCount()).toBe(3);
    await vectorStore.delete("knowledge/a.md");
    expect(store!.chunkCount()).toBe(1);
    expect(store!.documents().map((d) => d.path)).toEqual(["knowledge/b.md"]);
    expect(store!.lexical(["sauerkraut"], 5)).toEqual([]);
  });

  it("a LlamaIndex VectorStoreIndex over it retrieves by vector; SPARSE and HYBRID queries answer with each side's score", async () => {
    const vectorStore = await openStore();
    const nodes = [node("knowledge/ferment.md", 0, "Sauerkraut is cabbage fermented by lactic acid bacteria for three weeks."), node("knowledge/orbit.md", 0, "A geostationary orbit has a period of one sidereal day."), node("knowledge/garden.md", 0, "Tomatoes need six hours of sun.")];
    for (const n of nodes) n.embedding = await vectorStore.embedModel.getTextEmbedding(n.getText());
    await vectorStore.add(nodes);

    // As a LlamaIndex program sets it up: the embed model in Settings, the index over the store.
    Settings.embedModel = vectorStore.embedModel;
    const index = await VectorStoreIndex.fromVectorStore(vectorStore);
    const retrieved = await index.asRetriever({ similarityTopK: 2 }).retrieve({ query: "fermented cabbage" });
    expect(retrieved[0].node.metadata.path).toBe("knowledge/ferment.md");
    expect(retrieved[0].score).toBeGreaterThan(0);

    const sparse = await vectorStore.query({ mode: VectorStoreQueryMode.SPARSE, queryStr: "sidereal orbit", similarityTopK: 1 });
    expect(sparse.nodes?.[0].metadata).toMatchObject({ path: "knowledge/orbit.md", bm25: expect.any(Number), vector: null });
    const queryEmbedding = (await vectorStore.embedModel.getQueryEmbedding({ type: "text", text: "tomato sun" }))!;
    const hybrid = await vectorStore.query({ mode: VectorStoreQueryMode.HYBRID, queryStr: "tomato sun", queryEmbedding, similarityTopK: 3, alpha: 0.7 });
    expect(hybrid.nodes?.[0].metadata).toMatchObject({ path: "knowledge/garden.md", bm25: expect.any(Number), vector: expect.any(Number) });
    expect(hybrid.similarities[0]).toBeGreaterThanOrEqual(hybrid.similarities[1] ?? 0);
  });

  it("every word the offline embedder weighs gets its IDF, a Greek letter as the embedder sees it included", async () => {
    const vectorStore = await openStore();
    const texts = ["TNF-α rises in sepsis.", "Interleukin levels fall.", "Sepsis needs antibiotics."];
    const nodes = texts.map((t, i) => node(`knowledge/${i}.md`, 0, t));
    for (const n of nodes) n.embedding = await vectorStore.embedModel.getTextEmbedding(n.getText());
    await vectorStore.add(nodes);
    const weights = new Map<string, number>();
    const s = store!;
    const recording = new KnowledgeVectorStore(() => s, () => ({
      ...offlineEmbedder,
      embedQuery: async (text, termWeight) => {
        for (const word of textWords(text.toLowerCase())) weights.set(word, termWeight(word));
        return offlineEmbedder.embedQuery(text, termWeight);
      },
    }));
    await recording.embedModel.getQueryEmbedding({ type: "text", text: "TNF-α in sepsis" });
    // "α" is indexed as "alpha" (no chunk holds the term "α"): the rarest weight, as for any unseen word, never 1.
    expect([...weights.keys()].sort()).toEqual(["sepsi", "tnf", "α"]);
    expect(weights.get("sepsi")).toBeCloseTo(Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5)), 6);
    expect(weights.get("α")).toBeCloseTo(Math.log(1 + (3 + 0.5) / 0.5), 6);
  });

  it("queries are embedded by the embedder of the moment, after the user switched endpoints", async () => {
    dir = await mkdtemp(join(tmpdir(), "moc-lvs-"));
    store = SqliteIndexStore.open(join(dir, "index.db"));
    const s = store;
    let current = offlineEmbedder;
    const vectorStore = new KnowledgeVectorStore(() => s, () => current);
    expect((await vectorStore.embedModel.getQueryEmbedding({ type: "text", text: "tea" }))!).toHaveLength(2048);
    current = { ...offlineEmbedder, id: "endpoint", mode: "openai", embedQuery: async () => Float32Array.from([1, 0, 0]) };
    expect(await vectorStore.embedModel.getQueryEmbedding({ type: "text", text: "tea" })).toEqual([1, 0, 0]);
  });

  it("a knowledge base hands LlamaIndex its store when asked, and LlamaIndex's hybrid query ranks as the workbench's own search", async () => {
    dir = await mkdtemp(join(tmpdir(), "moc-lvs-"));
    await mkdir(join(dir, "knowledge"));
    await writeFile(join(dir, "knowledge", "tea.md"), "Green tea is steeped at eighty degrees for two minutes.");
    await writeFile(join(dir, "knowledge", "orbit.md"), "A sidereal orbit is measured against the fixed stars.");
    await writeFile(join(dir, "knowledge", "kettle.md"), "The kettle boils water for tea and for coffee.");
    const kb = new KnowledgeBase(dir, offlineEmbedder);
    try {
      await kb.sync();
      const own = await kb.search("steeping green tea", 3, { sync: false });
      const llama = await kb.llamaIndexStore();
      expect(await kb.llamaIndexStore()).toBe(llama);
      const queryEmbedding = (await llama.embedModel.getQueryEmbedding({ type: "text", text: "steeping green tea" }))!;
      const found = await llama.query({ mode: VectorStoreQueryMode.HYBRID, queryStr: "steeping green tea", queryEmbedding, similarityTopK: 9 });
      expect(own.mode).toBe("hybrid");
      expect(own.results.map((r) => r.source)).toEqual(found.nodes!.map((n) => n.metadata.path).slice(0, own.results.length));
      expect(own.results[0].source).toBe("knowledge/tea.md");
    } finally {
      await kb.close();
    }
  });
});
