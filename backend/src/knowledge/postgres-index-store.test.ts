/**
 * The PostgreSQL store against a real engine (PGlite's socket server, started here), with pgvector
 * and without it: the same scores as the embedded store, its modes, collections kept apart, the
 * lease guarding writes, and a database of a newer schema left alone.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VectorStoreQueryMode } from "@llamaindex/core/vector-store";
import { offlineEmbedder } from "./embedders.js";
import { SqliteIndexStore } from "./sqlite-index-store.js";
import { KnowledgeVectorStore } from "./knowledge-vector-store.js";
import { offlineEmbed } from "./offline-embedder.js";
import { IndexLease, newLeaseHolder } from "./index-lease.js";
import { LeaseLostError, PostgresIndexStore } from "./postgres-index-store.js";
import { textTerms } from "./text-terms.js";
import { type PostgresEngine, startPostgresEngine } from "../../test-support/postgres-engine.js";

const space = { embedder: offlineEmbedder.id, format: "sparse-i8" as const };
const DOCS: Record<string, string[]> = {
  "knowledge/cells.md": ["Mitochondria are the powerhouse of the cell and make ATP.", "Ribosomes translate messenger RNA into proteins."],
  "knowledge/stars.md": ["A neutron star is the collapsed core of a massive star.", "Pulsars are rotating neutron stars that emit beams."],
  "knowledge/cooking.md": ["Bread rises because yeast ferments sugar into carbon dioxide.", "Salt tightens gluten in bread dough."],
};
const chunksOf = (texts: string[]) => texts.map((text, index) => ({ index, line: index + 1, text, terms: textTerms(text).join(" ") }));
const vectorsOf = (texts: string[]) => ({ space, rows: texts.map((t) => offlineEmbed(t)) });

/** A store holding DOCS, with the lease taken for writing. */
async function filled(url: string, collection: string): Promise<{ store: PostgresIndexStore; lease: IndexLease }> {
  const holder = newLeaseHolder();
  const store = await PostgresIndexStore.open({ url, collection, holder });
  const lease = new IndexLease(store.pool, collection, holder, 30_000, "test:/a/knowledge");
  expect(await lease.acquire({ running: true, done: 0, total: 3, current: null })).toBe(true);
  await store.clear(1);
  await store.useVectorSpace(space);
  for (const [path, texts] of Object.entries(DOCS)) await store.writeDocument({ path, size: 10, mtimeMs: 1 }, chunksOf(texts), vectorsOf(texts));
  return { store, lease };
}

for (const vector of [true, false]) {
  describe(`PostgreSQL store ${vector ? "with pgvector" : "without pgvector (vectors stored beside the chunks)"}`, () => {
    let engine: PostgresEngine;
    let dir: string;
    beforeAll(async () => {
      engine = await startPostgresEngine({ vector });
      dir = await mkdtemp(join(tmpdir(), "moc-pgstore-"));
    }, 60_000);
    afterAll(async () => {
      await engine?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it("scores BM25 as the embedded store does, and answers SPARSE, DEFAULT and HYBRID queries with their chunks", async () => {
      const { store } = await filled(engine.url(), "one");
      expect(store.pgvector).toBe(vector);
      const embedded = SqliteIndexStore.open(join(dir, "index.db"));
      embedded.clear(1);
      embedded.useVectorSpace(space);
      for (const [path, texts] of Object.entries(DOCS)) embedded.writeDocument({ path, size: 10, mtimeMs: 1 }, chunksOf(texts), vectorsOf(texts));

      for (const query of ["neutron star", "bread yeast sugar", "proteins"]) {
        const ours = await store.lexical(textTerms(query), 10);
        const theirs = embedded.lexical(textTerms(query), 10);
        expect(ours.length).toBeGreaterThan(0);
        const path = async (id: number) => (await store.chunks([id])).get(id)!.path;
        expect(await Promise.all(ours.map((s) => path(s.id)))).toEqual(theirs.map((s) => embedded.chunks([s.id]).get(s.id)!.path));
        ours.forEach((s, i) => expect(s.score).toBeCloseTo(theirs[i].score, 4));
      }
      embedded.close();

      const llama = new KnowledgeVectorStore(() => store, () => offlineEmbedder);
      const queryEmbedding = Array.from(offlineEmbed("collapsed core of a massive star"));
      for (const mode of [VectorStoreQueryMode.SPARSE, VectorStoreQueryMode.DEFAULT, VectorStoreQueryMode.HYBRID]) {
        const found = await llama.query({ mode, queryStr: "collapsed core of a massive star", queryEmbedding, similarityTopK: 2 });
        expect(found.nodes![0].metadata).toMatchObject({ path: "knowledge/stars.md", index: 0, line: 1 });
        if (mode !== VectorStoreQueryMode.SPARSE) expect(found.nodes![0].metadata.vector).toBeGreaterThan(0.2);
      }
      // Once the vectors are all in, pgvector's HNSW index is built and answers the vector-only query the same.
      await store.markVectorsComplete();
      const indexes = await store.pool.query("SELECT indexname FROM pg_indexes WHERE schemaname = 'mini_openclaw' AND indexname LIKE 'vectors_hnsw_%'");
      expect(indexes.rows.map((r) => r.indexname)).toEqual(vector ? ["vectors_hnsw_one_2048"] : []);
      const nearest = await llama.query({ mode: VectorStoreQueryMode.DEFAULT, queryStr: "", queryEmbedding, similarityTopK: 2 });
      expect(nearest.nodes![0].metadata).toMatchObject({ path: "knowledge/stars.md", index: 0 });
      expect(await store.chunkCount()).toBe(6);
      await store.close();
    });

    it("removes a document whole, keeps collections apart, and clears only its own", async () => {
      const { store: a } = await filled(engine.url(), "alpha");
      const { store: b } = await filled(engine.url(), "beta");
      await a.removeDocument("knowledge/stars.md");
      expect((await a.documents()).map((d) => d.path).sort()).toEqual(["knowledge/cells.md", "knowledge/cooking.md"]);
      expect(await a.lexical(["neutron"], 10)).toEqual([]);
      expect(await a.chunkCount()).toBe(4);
      expect((await b.lexical(["neutron"], 10)).length).toBe(2);
      await a.clear(1);
      expect(await a.chunkCount()).toBe(0);
      expect(await a.documents()).toEqual([]);
      expect(await b.chunkCount()).toBe(6);
      expect((await b.scanVectors(offlineEmbed("yeast bread"), 3)).length).toBe(3);
      await a.close();
      await b.close();
    });

    it("refuses writes from a workbench whose lease passed to another, and leaves its committed documents whole", async () => {
      const { store, lease } = await filled(engine.url(), "leased");
      await lease.release();
      const otherHolder = newLeaseHolder();
      const other = await PostgresIndexStore.open({ url: engine.url(), collection: "leased", holder: otherHolder });
      const otherLease = new IndexLease(other.pool, "leased", otherHolder, 30_000, "test:/b/knowledge");
      expect(await otherLease.acquire({ running: true, done: 1, total: 5, current: "knowledge/x.md" })).toBe(true);
      expect(await lease.acquire({ running: false, done: 0, total: 0, current: null })).toBe(false);
      expect(await lease.indexer()).toMatchObject({ self: false, pid: process.pid, progress: { done: 1, total: 5, current: "knowledge/x.md" } });
      await expect(store.writeDocument({ path: "knowledge/cells.md", size: 1, mtimeMs: 2 }, chunksOf(["replaced"]), null)).rejects.toBeInstanceOf(LeaseLostError);
      expect((await store.chunksOf("knowledge/cells.md")).map((c) => c.text)).toEqual(DOCS["knowledge/cells.md"]);
      await store.close();
      await other.close();
    });
  });
}

it("migrates a database at schema version 1, keeping its index: BM25 then reads postings and lengths from covering indexes", async () => {
  const engine = await startPostgresEngine({ vector: false });
  try {
    const { store, lease } = await filled(engine.url(), "old");
    const before = await store.lexical(textTerms("neutron star bread"), 10);
    await lease.release();
    await store.close();
    // The database as version 1 left it.
    const client = new pg.Client({ connectionString: engine.url() });
    await client.connect();
    await client.query("ALTER TABLE mini_openclaw.postings DROP CONSTRAINT postings_pkey, ADD PRIMARY KEY (collection, term, chunk_id)");
    await client.query("DROP INDEX mini_openclaw.chunk_lengths");
    await client.query("UPDATE mini_openclaw.schema_version SET version = 1");

    const migrated = await PostgresIndexStore.open({ url: engine.url(), collection: "old", holder: null });
    expect((await client.query("SELECT version FROM mini_openclaw.schema_version")).rows).toEqual([{ version: 2 }]);
    const indexes = await client.query("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'mini_openclaw' AND indexname IN ('postings_pkey', 'chunk_lengths') ORDER BY indexname");
    expect(indexes.rows.map((r) => [r.indexname, /INCLUDE \((\w+)\)/.exec(r.indexdef)?.[1]])).toEqual([
      ["chunk_lengths", "length"],
      ["postings_pkey", "tf"],
    ]);
    expect(await migrated.lexical(textTerms("neutron star bread"), 10)).toEqual(before);
    expect(await migrated.chunkCount()).toBe(6);
    await migrated.close();
    await client.end();
  } finally {
    await engine.close();
  }
}, 60_000);

it("refuses a database whose schema is newer than the workbench's, and does not change it", async () => {
  const engine = await startPostgresEngine({ vector: false });
  try {
    const store = await PostgresIndexStore.open({ url: engine.url(), collection: "c", holder: null });
    await store.close();
    const client = new pg.Client({ connectionString: engine.url() });
    await client.connect();
    await client.query("UPDATE mini_openclaw.schema_version SET version = 99");
    await expect(PostgresIndexStore.open({ url: engine.url(), collection: "c", holder: null })).rejects.toThrow(/version 99, newer than this workbench's 2/);
    expect((await client.query("SELECT version FROM mini_openclaw.schema_version")).rows).toEqual([{ version: 99 }]);
    await client.end();
  } finally {
    await engine.close();
  }
}, 60_000);
