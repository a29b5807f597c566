import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineEmbedder } from "./embedders.js";
import { IndexWorker } from "./index-worker.js";
import { SqliteIndexStore } from "./sqlite-index-store.js";

let root: string;
let dbFile: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "moc-reader-"));
  await mkdir(join(root, "knowledge"));
  await writeFile(join(root, "knowledge", "a.md"), "Sauerkraut is fermented cabbage.\n\nIt keeps for months.\n");
  dbFile = join(root, "index.db");
});
afterAll(async () => rm(root, { recursive: true, force: true }));

const space = { embedder: offlineEmbedder.id, format: "sparse-i8" as const };
const job = (maxBytes = 1000) => ({ kind: "index" as const, store: { kind: "sqlite" as const, file: dbFile }, dataRoot: root, path: "knowledge/a.md", size: 1, mtimeMs: 2, maxBytes, offline: space });

describe("IndexWorker", () => {
  it("reads, chunks and writes a document in its worker, with terms and offline vectors", async () => {
    const worker = new IndexWorker(30_000);
    expect(await worker.run({ kind: "prepare", store: { kind: "sqlite", file: dbFile }, textAnalysis: 2, space })).toMatchObject({ ok: true });
    const result = await worker.run(job());
    await worker.close();
    expect(result).toMatchObject({ ok: true, chunks: 1 });
    const store = SqliteIndexStore.open(dbFile);
    try {
      expect(store.chunksOf("knowledge/a.md")[0]).toMatchObject({ index: 0, line: 1, text: expect.stringContaining("Sauerkraut") });
      expect(store.lexical(["sauerkraut"], 5)).toHaveLength(1);
      expect(store.vectorCount()).toBe(1);
      expect(store.documents()).toEqual([{ path: "knowledge/a.md", size: 1, mtimeMs: 2, chunks: 1, reason: null }]);
    } finally {
      store.close();
    }
  });

  it("a close while the worker is still starting ends the pending job instead of leaving it waiting", async () => {
    const worker = new IndexWorker(30_000);
    const pending = worker.run(job());
    await worker.close();
    expect(await pending).toMatchObject({ ok: false });
    expect(await worker.run(job())).toMatchObject({ ok: false, reason: "the knowledge base closed" });
  });

  it("a document over the size limit is recorded with its reason, not a throw", async () => {
    const worker = new IndexWorker(30_000);
    const result = await worker.run(job(10));
    await worker.close();
    expect(result).toMatchObject({ ok: false, recorded: true, reason: expect.stringMatching(/over the 10-byte limit/) });
    const store = SqliteIndexStore.open(dbFile);
    try {
      expect(store.documents()[0]).toMatchObject({ path: "knowledge/a.md", chunks: 0, reason: expect.stringMatching(/over the 10-byte limit/) });
      expect(store.lexical(["sauerkraut"], 5)).toEqual([]);
    } finally {
      store.close();
    }
  });
});
