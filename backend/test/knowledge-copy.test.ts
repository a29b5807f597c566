/**
 * `pnpm knowledge:copy`: the built command moves an index from the embedded file to a PostgreSQL
 * server (a real engine started here) and back, with its vectors (nothing embedded or indexed again),
 * and never prints the database's password.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { offlineEmbedder } from "../src/knowledge/embedders.js";
import { KnowledgeBase } from "../src/knowledge/knowledge-base.js";
import { SqliteIndexStore } from "../src/knowledge/sqlite-index-store.js";
import { offlineEmbed } from "../src/knowledge/offline-embedder.js";
import { PostgresIndexStore } from "../src/knowledge/postgres-index-store.js";
import { textTerms } from "../src/knowledge/text-terms.js";
import { type PostgresEngine, startPostgresEngine } from "../test-support/postgres-engine.js";

const command = resolve(import.meta.dirname, "..", "dist", "cli", "knowledge-copy.js");
const PASSWORD = "copy-Secret-4410";
let engine: PostgresEngine;
let root: string;
beforeAll(async () => {
  engine = await startPostgresEngine({ vector: true });
  root = await mkdtemp(join(tmpdir(), "moc-copy-"));
  await mkdir(join(root, "knowledge"), { recursive: true });
  for (let n = 0; n < 12; n++) await writeFile(join(root, "knowledge", `note-${n}.md`), `Note ${n} is about the topic kestrel${n}.\n\n${"Some shared words about birds of prey. ".repeat(20 + n)}`);
}, 60_000);
afterAll(async () => {
  await engine?.close();
  await rm(root, { recursive: true, force: true });
});

const run = (direction: string) =>
  promisify(execFile)(process.execPath, [command, direction], {
    env: { ...process.env, WORKBENCH_ROOT: root, KEY_FILE: join(root, "none.md"), KNOWLEDGE_STORE_URL: engine.url(PASSWORD), KNOWLEDGE_COLLECTION: "moved", OPENAI_API_KEY: "", EMBEDDING_MODEL: "" },
  });

it("copies the embedded index to the server and back, vectors included; the workbench on the server indexes nothing again", async () => {
  const local = new KnowledgeBase(root, offlineEmbedder);
  await local.sync();
  expect(local.status().documents).toBe(12);
  await local.close();

  const there = await run("to-server");
  expect(there.stdout).toMatch(/copied 12 documents, \d+ chunks \(\d+ with their vectors\)/);
  expect(there.stdout + there.stderr).not.toContain(PASSWORD);

  const sqlite = SqliteIndexStore.open(join(root, "storage", "knowledge", "index.db"));
  const server = await PostgresIndexStore.open({ url: engine.url(), collection: "moved", holder: null });
  expect(await server.chunkCount()).toBe(sqlite.chunkCount());
  expect((await server.documents()).sort((a, b) => a.path.localeCompare(b.path))).toEqual(sqlite.documents().sort((a, b) => a.path.localeCompare(b.path)));
  const query = offlineEmbed("kestrel7 birds");
  const pathsOf = async (store: SqliteIndexStore | PostgresIndexStore, ids: number[]) => {
    const chunks = await store.chunks(ids);
    return ids.map((id) => chunks.get(id)!.path);
  };
  expect(await pathsOf(server, (await server.lexical(textTerms("kestrel7 birds"), 3)).map((s) => s.id))).toEqual(await pathsOf(sqlite, sqlite.lexical(textTerms("kestrel7 birds"), 3).map((s) => s.id)));
  expect((await pathsOf(server, (await server.scanVectors(query, 1)).map((s) => s.id)))[0]).toBe("knowledge/note-7.md");
  expect(await server.vectorsMayBeMissing()).toBe(false);
  sqlite.close();
  await server.close();

  // A workbench on the server store finds every document indexed already.
  const onServer = new KnowledgeBase(root, offlineEmbedder, undefined, undefined, { url: engine.url(), collection: "moved", leaseMs: 30_000 });
  await onServer.sync();
  expect(onServer.status()).toMatchObject({ documents: 12, indexing: { total: 0 } });
  expect((await onServer.search("kestrel3", 1)).results[0].source).toBe("knowledge/note-3.md");
  await onServer.close();

  // And back, into a fresh embedded file.
  await rm(join(root, "storage", "knowledge"), { recursive: true, force: true });
  await mkdir(join(root, "storage", "knowledge"), { recursive: true });
  const back = await run("to-local");
  expect(back.stdout).toMatch(/copied 12 documents/);
  const reloaded = new KnowledgeBase(root, offlineEmbedder);
  await reloaded.sync();
  expect(reloaded.status()).toMatchObject({ documents: 12, indexing: { total: 0 } });
  const found = await reloaded.search("kestrel5", 1, { sync: false });
  expect(found).toMatchObject({ mode: "hybrid", results: [{ source: "knowledge/note-5.md" }] });
  await reloaded.close();
}, 120_000);
