import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "libsql";
import { afterEach, expect, it } from "vitest";
import { SqliteIndexStore } from "./sqlite-index-store.js";

let dir = "";
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const chunk = (index: number, text: string) => ({ index, line: index + 1, text, terms: text.toLowerCase() });

it("keeps the chunk count through writes, rewrites and removals, and counts again a store whose count was kept wrong", async () => {
  dir = await mkdtemp(join(tmpdir(), "moc-store-"));
  const file = join(dir, "index.db");
  const store = SqliteIndexStore.open(file);
  store.writeDocument({ path: "knowledge/a.md", size: 1, mtimeMs: 1 }, [chunk(0, "alpha"), chunk(1, "beta")], null);
  expect(store.chunkCount()).toBe(2);
  store.writeDocument({ path: "knowledge/b.md", size: 1, mtimeMs: 1 }, [chunk(0, "gamma")], null);
  store.writeDocument({ path: "knowledge/a.md", size: 2, mtimeMs: 2 }, [chunk(0, "delta")], null);
  expect(store.chunkCount()).toBe(2);
  store.removeDocument("knowledge/b.md");
  expect(store.chunkCount()).toBe(1);
  store.close();

  // As the version before kept it: under "chunk_count", its first document counted twice.
  const raw = new Database(file);
  raw.exec("DELETE FROM meta WHERE key = 'chunks'; INSERT INTO meta(key, value) VALUES ('chunk_count', '3')");
  raw.close();
  const reopened = SqliteIndexStore.open(file);
  expect(reopened.chunkCount()).toBe(1);
  reopened.close();
});

it("scores Okapi BM25 (k1 1.2, b 0.75) with Lucene's idf, exactly as the formula gives it, best first", async () => {
  dir = await mkdtemp(join(tmpdir(), "moc-store-"));
  const store = SqliteIndexStore.open(join(dir, "index.db"));
  const texts = ["kiln glaze glaze", "kiln", "glaze cone six firing", "wheel clay", "clay clay clay kiln wedging", "firing schedule for a gas kiln"];
  texts.forEach((text, i) => store.writeDocument({ path: `knowledge/${i}.md`, size: 1, mtimeMs: 1 }, [chunk(0, text)], null));
  const ids = new Map(texts.map((text, i) => [store.chunksOf(`knowledge/${i}.md`)[0].id, text.split(" ")]));
  // The formula, from its definition (Robertson & Zaragoza; Lucene's BM25Similarity for the idf).
  const docs = [...ids.values()];
  const avg = docs.reduce((n, d) => n + d.length, 0) / docs.length;
  const expected = (query: string[]) =>
    [...ids]
      .map(([id, words]) => {
        let score = 0;
        for (const term of new Set(query)) {
          const tf = words.filter((w) => w === term).length;
          if (tf === 0) continue;
          const df = docs.filter((d) => d.includes(term)).length;
          const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
          score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * words.length) / avg));
        }
        return { id, score };
      })
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || a.id - b.id);
  for (const query of [["kiln"], ["glaze", "kiln"], ["clay", "firing", "kiln", "nothing"], ["kiln", "kiln", "wheel"]]) {
    const got = store.lexical(query, 10);
    const want = expected(query);
    expect(got.map((s) => s.id)).toEqual(want.map((s) => s.id));
    got.forEach((s, i) => expect(s.score).toBeCloseTo(want[i].score, 9));
  }
  expect(store.lexical(["kiln", "glaze", "clay"], 2)).toHaveLength(2);
  store.close();
});

it("answers a query of 600 distinct words (its first 200 count)", async () => {
  dir = await mkdtemp(join(tmpdir(), "moc-store-"));
  const store = SqliteIndexStore.open(join(dir, "index.db"));
  store.writeDocument({ path: "knowledge/a.md", size: 1, mtimeMs: 1 }, [chunk(0, "word7 word450"), chunk(1, "word599")], null);
  const query = Array.from({ length: 600 }, (_, i) => `word${i}`);
  expect(store.lexical(query, 10).map((s) => s.id)).toEqual([store.chunksOf("knowledge/a.md")[0].id]);
  store.close();
});

it("keeps the write-ahead log's file small once it is reset: one large write does not leave it that large on disk", async () => {
  dir = await mkdtemp(join(tmpdir(), "moc-store-"));
  const file = join(dir, "index.db");
  const store = SqliteIndexStore.open(file);
  // One transaction as large as an FTS5 merge of big segments can be.
  const big = Array.from({ length: 80 }, (_, i) => chunk(i, `${"x".repeat(1024 * 1024)} big${i}`));
  store.writeDocument({ path: "knowledge/big.md", size: 1, mtimeMs: 1 }, big, null);
  expect((await stat(`${file}-wal`)).size).toBeGreaterThan(64 * 1024 * 1024);
  // SQLite's own checkpoints reset the log; later writes start it again from its beginning.
  for (let i = 0; i < 5; i++) store.writeDocument({ path: `knowledge/small${i}.md`, size: 1, mtimeMs: 1 }, [chunk(0, `small ${i}`)], null);
  expect((await stat(`${file}-wal`)).size).toBeLessThanOrEqual(64 * 1024 * 1024);
  expect(store.chunkCount()).toBe(85);
  store.close();
});
