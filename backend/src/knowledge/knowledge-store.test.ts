import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "libsql";
import { afterEach, expect, it } from "vitest";
import { KnowledgeStore } from "./knowledge-store.js";

let dir = "";
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const chunk = (index: number, text: string) => ({ index, line: index + 1, text, terms: text.toLowerCase() });

it("keeps the chunk count through writes, rewrites and removals, and counts again a store whose count was kept wrong", async () => {
  dir = await mkdtemp(join(tmpdir(), "moc-store-"));
  const file = join(dir, "index.db");
  const store = KnowledgeStore.open(file);
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
  const reopened = KnowledgeStore.open(file);
  expect(reopened.chunkCount()).toBe(1);
  reopened.close();
});
