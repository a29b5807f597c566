/**
 * The knowledge index on PostgreSQL, through real workbench processes (dist/main.js) and a real
 * engine started here (PGlite's socket server with pgvector): indexing, search and citations,
 * delete and restore, a rebuild of one collection, two workbenches sharing a collection (one
 * indexes, the other searches and sees its progress, then takes over when the first is killed), the
 * database stopped and started mid-indexing, and the password never in a reply or a log line.
 */
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { KnowledgeSearchReply, KnowledgeStatusReply } from "@mini-openclaw/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type PostgresEngine, startPostgresEngine } from "../test-support/postgres-engine.js";
import { type ServerProcess, startServerProcess } from "../test-support/server-process.js";

const PASSWORD = "pg-Secret-7731-never-shown";
const DOCUMENTS = 100;
/** A document of a few chunks, each naming the document (so a search finds exactly it). */
const documentText = (n: number) =>
  Array.from({ length: 4 }, (_, p) => `Report ${n} section ${p}: the marker word zebra${n} appears here. ${"Filler sentence about nothing in particular. ".repeat(30)}`).join("\n\n");

/**
 * The engine answers 20 ms late, as a server across a network does: indexing the shared collection's
 * 100 documents then takes seconds on any machine, so the second workbench finds the first mid-way
 * (on a fast machine, with answers at once, the first had finished before the second was up).
 */
let engine: PostgresEngine;
/** The same engine without the vector extension: vectors are stored beside the chunks. */
let plainEngine: PostgresEngine;
const servers: ServerProcess[] = [];
const roots: string[] = [];
beforeAll(async () => {
  [engine, plainEngine] = await Promise.all([startPostgresEngine({ vector: true, latencyMs: 20 }), startPostgresEngine({ vector: false })]);
}, 60_000);
afterAll(async () => {
  await engine?.close();
  await plainEngine?.close();
});
afterEach(async () => {
  for (const server of servers.splice(0)) {
    if (server.alive()) {
      const exited = new Promise((r) => server.child.once("exit", r));
      server.child.kill("SIGKILL");
      await exited;
    }
  }
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

/** A data root with `count` documents, all at one fixed mtime (two roots alike are one folder's copies). */
async function dataRoot(count: number): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "moc-pgkb-"));
  roots.push(root);
  await mkdir(join(root, "knowledge", "reports"), { recursive: true });
  for (let n = 0; n < count; n++) {
    const file = join(root, "knowledge", "reports", `report-${n}.md`);
    await writeFile(file, documentText(n));
    await utimes(file, 1_700_000_000, 1_700_000_000);
  }
  return root;
}

async function workbench(root: string, collection: string, on: PostgresEngine = engine): Promise<ServerProcess> {
  const server = await startServerProcess({
    WORKBENCH_ROOT: root,
    KEY_FILE: join(root, "none.md"),
    KNOWLEDGE_STORE_URL: on.url(PASSWORD),
    KNOWLEDGE_COLLECTION: collection,
    KNOWLEDGE_LEASE_MS: "1500",
    OPENAI_API_KEY: "",
    EMBEDDING_MODEL: "",
    LOG_LEVEL: "info",
  });
  servers.push(server);
  return server;
}

const status = async (server: ServerProcess) => (await (await fetch(`${server.url}/api/knowledge/status`)).json()) as KnowledgeStatusReply;
async function search(server: ServerProcess, q: string): Promise<{ status: number; body: KnowledgeSearchReply & { error?: string; code?: string } }> {
  const reply = await fetch(`${server.url}/api/knowledge/search?q=${encodeURIComponent(q)}&k=3`);
  return { status: reply.status, body: (await reply.json()) as KnowledgeSearchReply & { error?: string; code?: string } };
}
const indexed = (server: ServerProcess, count: number) =>
  expect.poll(async () => { const s = await status(server); return s.documents === count && !s.indexing.running; }, { timeout: 90_000, interval: 200 }).toBe(true);

/** Documents whose stored chunk rows do not match their documents row (a half-written document). */
async function halfWritten(collection: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: engine.url() });
  await client.connect();
  try {
    const rows = await client.query(
      `SELECT d.path, d.chunks, count(c.id)::int AS stored FROM mini_openclaw.documents d
       LEFT JOIN mini_openclaw.chunks c ON c.collection = d.collection AND c.path = d.path
       WHERE d.collection = $1 GROUP BY d.path, d.chunks HAVING count(c.id) <> d.chunks`,
      [collection],
    );
    return rows.rows;
  } finally {
    await client.end();
  }
}

const noPassword = (text: string) => expect(text.includes(PASSWORD) || text.includes(encodeURIComponent(PASSWORD)), "the database password was shown").toBe(false);

describe("the knowledge index on PostgreSQL", () => {
  it.each([
    ["with pgvector", "pgvector"],
    ["without pgvector", "stored"],
  ] as const)("%s: indexes, searches with citations, deletes and restores, and rebuilds only its collection; the password is never shown", async (_, vectors) => {
    const on = vectors === "pgvector" ? engine : plainEngine;
    const root = await dataRoot(6);
    const other = await workbench(await dataRoot(3), "neighbour", on);
    const server = await workbench(root, "main_kb", on);
    await indexed(server, 6);
    await indexed(other, 3);
    const s = await status(server);
    expect(s.store).toMatchObject({ kind: "postgres", collection: "main_kb", vectors, connected: true, error: null, indexer: { self: true } });
    expect(s.store.location).toBe(`postgres://postgres@127.0.0.1:${on.port}/postgres`);
    expect(s.chunks).toBeGreaterThanOrEqual(6 * 4);

    const found = await search(server, "zebra4");
    expect(found.status).toBe(200);
    expect(found.body.mode).toBe("hybrid");
    expect(found.body.results[0]).toMatchObject({ source: "knowledge/reports/report-4.md", line: 1 });
    expect(found.body.results[0].text).toContain("zebra4");
    // The citation opens the document.
    const source = await fetch(`${server.url}/api/knowledge/source?path=${encodeURIComponent("knowledge/reports/report-4.md")}`);
    expect(((await source.json()) as { text: string }).text).toContain("Report 4 section 3");

    const removed = (await (await fetch(`${server.url}/api/knowledge/documents?path=${encodeURIComponent("knowledge/reports/report-4.md")}`, { method: "DELETE" })).json()) as { trash: string };
    expect((await search(server, "zebra4")).body.results.map((r) => r.source)).not.toContain("knowledge/reports/report-4.md");
    expect((await status(server)).documents).toBe(5);
    const restored = await fetch(`${server.url}/api/knowledge/documents/restore`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ trash: removed.trash }) });
    expect(restored.status).toBe(200);
    await expect.poll(async () => (await search(server, "zebra4")).body.results[0]?.source, { timeout: 20_000 }).toBe("knowledge/reports/report-4.md");

    // A rebuild: this collection again from its documents; the neighbour's untouched.
    const neighbour = (await status(other)).chunks;
    expect((await fetch(`${server.url}/api/knowledge/rebuild`, { method: "POST" })).status).toBe(202);
    await indexed(server, 6);
    expect((await search(server, "zebra5")).body.results[0].source).toBe("knowledge/reports/report-5.md");
    expect((await status(other)).chunks).toBe(neighbour);
    expect((await search(other, "zebra5")).body.results.map((r) => r.source)).toEqual([]);

    noPassword(JSON.stringify(await status(server)));
    noPassword(await (await fetch(`${server.url}/api/health`)).text());
    noPassword(server.output.join(""));
    noPassword(other.output.join(""));
  }, 60_000);

  it("two workbenches on one collection: one indexes, the other searches and sees its progress, then takes over when the first is killed", async () => {
    const first = await workbench(await dataRoot(DOCUMENTS), "shared");
    await expect.poll(async () => (await status(first)).store.indexer?.self, { timeout: 20_000 }).toBe(true);
    const second = await workbench(await dataRoot(DOCUMENTS), "shared");

    // The second searches what the first committed, and shows who indexes and how far.
    await expect.poll(async () => (await status(second)).documents, { timeout: 30_000, interval: 100 }).toBeGreaterThan(0);
    const watching = await status(second);
    expect(watching.store.indexer).toMatchObject({ self: false, pid: first.child.pid });
    // Two folders on one collection (attack round 4, finding 15): each workbench's status says whose documents it holds.
    expect(watching.store.note).toMatch(/^This collection holds the documents of .+ \(indexed by .+\)\. This workbench's knowledge folder \(.+\) is not indexed: documents only here are left out of search/);
    expect((await status(first)).store.note).toMatch(/^This collection holds the documents of this workbench's knowledge folder .*documents only in their own folders are not indexed/);
    expect(watching.documents).toBeLessThan(DOCUMENTS);
    expect(watching.indexing.running).toBe(true);
    expect(watching.indexing.total).toBe(DOCUMENTS);
    expect((await search(second, "zebra0")).body.results[0].source).toBe("knowledge/reports/report-0.md");
    const rebuild = await fetch(`${second.url}/api/knowledge/rebuild`, { method: "POST" });
    expect(rebuild.status).toBe(409);

    // The first dies mid-indexing: its lease runs out and the second takes the collection over and finishes it.
    const exited = new Promise((r) => first.child.once("exit", r));
    first.child.kill("SIGKILL");
    await exited;
    await expect.poll(async () => (await status(second)).store.indexer?.self, { timeout: 20_000, interval: 200 }).toBe(true);
    await indexed(second, DOCUMENTS);
    expect(await halfWritten("shared")).toEqual([]);
    expect((await search(second, `zebra${DOCUMENTS - 1}`)).body.results[0].source).toBe(`knowledge/reports/report-${DOCUMENTS - 1}.md`);
    noPassword(second.output.join(""));
  }, 180_000);

  it("the database stopped mid-indexing: searches fail naming the store, the rest works; started again, indexing resumes with nothing half-written", async () => {
    const server = await workbench(await dataRoot(DOCUMENTS), "faulty");
    await expect.poll(async () => (await status(server)).documents, { timeout: 30_000, interval: 50 }).toBeGreaterThan(5);
    await engine.stop();

    await expect.poll(async () => (await status(server)).store.connected, { timeout: 20_000, interval: 100 }).toBe(false);
    const down = await status(server);
    expect(down.store.error).toBeTruthy();
    expect(down.documents).toBeLessThan(DOCUMENTS);
    const failed = await search(server, "zebra1");
    expect(failed.status).toBe(503);
    expect(failed.body.code).toBe("unavailable");
    expect(failed.body.error).toContain(`The knowledge store (postgres://postgres@127.0.0.1:${engine.port}/postgres) cannot be reached`);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/sessions`)).status).toBe(200);

    await engine.start();
    await expect.poll(async () => (await status(server)).store.connected, { timeout: 60_000, interval: 200 }).toBe(true);
    await indexed(server, DOCUMENTS);
    expect(await halfWritten("faulty")).toEqual([]);
    expect((await search(server, `zebra${DOCUMENTS - 1}`)).body.results[0].source).toBe(`knowledge/reports/report-${DOCUMENTS - 1}.md`);
    noPassword(JSON.stringify(failed.body) + server.output.join(""));
  }, 180_000);

  it("the database down at start: the workbench starts, knowledge search says which store is unreachable, and it connects once the database is up", async () => {
    await engine.stop();
    try {
      const server = await workbench(await dataRoot(2), "late");
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      const failed = await search(server, "zebra1");
      expect(failed.status).toBe(503);
      expect(failed.body.error).toContain("postgres://postgres@127.0.0.1");
      expect((await status(server)).store).toMatchObject({ kind: "postgres", connected: false });
      await engine.start();
      await indexed(server, 2);
      expect((await search(server, "zebra1")).body.results[0].source).toBe("knowledge/reports/report-1.md");
      noPassword(JSON.stringify(failed.body) + server.output.join(""));
    } finally {
      await engine.start().catch(() => {});
    }
  }, 120_000);
});
