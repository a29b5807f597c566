/**
 * LlamaIndex's default vector store (SimpleVectorStore, JSON) against the knowledge base's binary
 * rows, on the same vectors: SciFact's chunks embedded offline (2,048 dims). Measures persist time,
 * file size, reload time and one brute-force query. Run: pnpm --filter ./backend bench:vector-store
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BaseEmbedding, Settings, SimpleVectorStore, TextNode } from "llamaindex";
import { offlineEmbed } from "../src/knowledge/offline-embedder.js";
import { VectorRows } from "../src/knowledge/vector-rows.js";

const DATA = resolve(process.env.SCIFACT_DIR ?? join(import.meta.dirname, "..", "..", "..", "shared", "bench-data", "scifact"));
const N = Number(process.env.CHUNKS ?? 6404);
const corpus = readFileSync(join(DATA, "corpus.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { title: string; text: string });
const texts = Array.from({ length: N }, (_, i) => `${corpus[i % corpus.length].title}\n${corpus[i % corpus.length].text}`);
const vectors = texts.map((t) => offlineEmbed(t));
const query = offlineEmbed("insulin secretion in pancreatic beta cells");
const dir = await mkdtemp(join(tmpdir(), "moc-vstore-"));
const time = async <T>(fn: () => Promise<T> | T): Promise<[T, number]> => {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
};

// LlamaIndex SimpleVectorStore (JSON), with the same offline embedder behind LlamaIndex's interface
class OfflineEmbedding extends BaseEmbedding {
  constructor() {
    super();
  }

  async getTextEmbedding(text: string): Promise<number[]> {
    return Array.from(offlineEmbed(text));
  }
}
Settings.embedModel = new OfflineEmbedding();
const store = new SimpleVectorStore({ embedModel: Settings.embedModel });
await store.add(texts.map((text, i) => new TextNode({ id_: `n${i}`, text, embedding: Array.from(vectors[i]) })));
const jsonPath = join(dir, "vector_store.json");
const [, jsonPersist] = await time(() => store.persist(jsonPath));
const jsonSize = (await stat(jsonPath)).size;
const [reloaded, jsonReload] = await time(() => SimpleVectorStore.fromPersistPath(jsonPath));
const [, jsonQuery] = await time(() => reloaded.query({ queryEmbedding: Array.from(query), similarityTopK: 10, mode: "default" as never }));

// Binary rows (what the knowledge base stores)
const rows = new VectorRows(query.length, N);
vectors.forEach((v, i) => rows.set(i, v));
const [{ ids, vectors: data }, binPersist] = await time(() => rows.toBuffers());
const [loaded, binReload] = await time(() => VectorRows.fromBuffers(query.length, ids, data));
const [, binQuery] = await time(() => loaded.search(query, 10));

console.log(`${N} chunks × ${query.length} dims`);
console.log(`SimpleVectorStore (JSON): persist ${jsonPersist.toFixed(0)} ms, file ${(jsonSize / 1024 / 1024).toFixed(1)} MB, reload ${jsonReload.toFixed(0)} ms, query ${jsonQuery.toFixed(1)} ms`);
console.log(`binary rows (Float32):    serialize ${binPersist.toFixed(0)} ms, file ${((ids.length + data.length) / 1024 / 1024).toFixed(1)} MB, reload ${binReload.toFixed(0)} ms, query ${binQuery.toFixed(1)} ms`);
await rm(dir, { recursive: true, force: true });
