/**
 * `kill -9` while the knowledge base indexes a batch of changed documents: the real server process
 * (the built dist/main.js), killed mid-batch. After it, every document in the store is wholly at one
 * version; the restarted server reads again only the documents not yet committed, and ends with every
 * document at its new version and the chunk counts as they were.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { KnowledgeDocument, KnowledgeStatusReply } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteIndexStore } from "../src/knowledge/sqlite-index-store.js";
import { freePort } from "../test-support/free-port.js";

const builtMain = resolve(__dirname, "..", "dist", "main.js");
const DOCUMENTS = 400;

let child: ChildProcess | undefined;
let root: string | undefined;
afterEach(async () => {
  if (child?.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child?.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  }
  child = undefined;
  if (root) await rm(root, { recursive: true, force: true });
});

/** A document of 12 paragraphs (a chunk each, about), every one naming its version. */
function documentText(n: number, version: number): string {
  return Array.from({ length: 12 }, (_, p) => `Document ${n} paragraph ${p} version${version} ${"lorem ipsum dolor sit amet ".repeat(40)}`).join("\n\n");
}

async function start(port: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, [builtMain], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", WORKBENCH_ROOT: root!, LOG_LEVEL: "warn", OPENAI_API_KEY: "", EMBEDDING_MODEL: "" },
    stdio: "ignore",
  });

  for (let i = 0; i < 150; i++) {
    if (await fetch(`http://127.0.0.1:${port}/api/health`).then(() => true, () => false)) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not answer within 15 s");
}
const status = async (port: number) => (await (await fetch(`http://127.0.0.1:${port}/api/knowledge/status`)).json()) as KnowledgeStatusReply;

/** The store as the crash left it: per document, the versions its chunks are at. */
function versionsInStore(): Map<string, Set<string>> {
  const store = SqliteIndexStore.open(join(root!, "storage/knowledge/index.db"));
  try {
    const out = new Map<string, Set<string>>();
    for (const doc of store.documents()) out.set(doc.path, new Set(store.chunksOf(doc.path).map((c) => /version(\d)/.exec(c.text)![1])));
    return out;
  } finally {
    store.close();
  }
}

describe("a crash while indexing", () => {
  it("kill -9 mid-batch: every document wholly at one version; the restart reads only the uncommitted ones and ends at the new versions", async () => {
    expect(existsSync(builtMain), "backend/dist is missing: the backend's test script builds it first").toBe(true);
    root = await mkdtemp(join(tmpdir(), "moc-crash-"));
    await mkdir(join(root, "knowledge", "batch"), { recursive: true });
    for (let n = 0; n < DOCUMENTS; n++) await writeFile(join(root, "knowledge", "batch", `doc-${n}.md`), documentText(n, 1));
    const port = await freePort();
    child = await start(port);
    await expect.poll(async () => { const s = await status(port); return !s.indexing.running && s.documents === DOCUMENTS; }, { timeout: 60_000, interval: 100 }).toBe(true);
    const before = ((await (await fetch(`http://127.0.0.1:${port}/api/knowledge/documents`)).json()) as { documents: KnowledgeDocument[] }).documents;
    const chunksBefore = new Map(before.map((d) => [d.path, d.chunks]));
    expect(chunksBefore.size).toBe(DOCUMENTS);

    // A batch of changes: every document rewritten at version 2 (same shape, same chunk count).
    // Each written whole (a rename into place), as an editor saves: a half-written file read by the watcher would be
    // a third version, read again after the restart.
    for (let n = 0; n < DOCUMENTS; n++) {
      const staged = join(root, `doc-${n}.staged`);
      await writeFile(staged, documentText(n, 2));
      await rename(staged, join(root, "knowledge", "batch", `doc-${n}.md`));
    }
    // Killed once some, not all, of the batch is committed.
    await expect.poll(async () => { const s = await status(port); return s.indexing.running && s.indexing.done >= 20 && s.indexing.done < s.indexing.total; }, { timeout: 30_000, interval: 10 }).toBe(true);
    const exited = new Promise((r) => child!.once("exit", r));
    child.kill("SIGKILL");
    await exited;

    const crashed = versionsInStore();
    expect(crashed.size).toBe(DOCUMENTS);
    for (const [path, versions] of crashed) expect([...versions], path).toHaveLength(1);
    const committed = [...crashed].filter(([, v]) => v.has("2")).length;
    expect(committed).toBeGreaterThanOrEqual(20);
    expect(committed, "the kill came after the whole batch: nothing left to resume").toBeLessThan(DOCUMENTS);

    // The restart: only the uncommitted documents are read again.
    child = await start(port);
    await expect.poll(async () => { const s = await status(port); return !s.indexing.running && s.indexing.total > 0; }, { timeout: 60_000, interval: 50 }).toBe(true);
    expect((await status(port)).indexing).toMatchObject({ done: DOCUMENTS - committed, total: DOCUMENTS - committed });
    const after = versionsInStore();
    for (const [path, versions] of after) expect([...versions], path).toEqual(["2"]);
    const listed = ((await (await fetch(`http://127.0.0.1:${port}/api/knowledge/documents`)).json()) as { documents: KnowledgeDocument[] }).documents;
    expect(new Map(listed.map((d) => [d.path, d.chunks]))).toEqual(chunksBefore);
  }, 180_000);
});
