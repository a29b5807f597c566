/**
 * `pnpm knowledge:copy -- to-server | to-local`: copies the knowledge index between the embedded file
 * (storage/knowledge/index.db) and the PostgreSQL store KNOWLEDGE_STORE_URL names, in the collection
 * the workbench would use, without embedding again. The target's copy of that index is replaced. Run
 * it while no workbench indexes the target (copying to the server takes the collection's lease, and
 * stops if another workbench holds it). The URL's password is never printed.
 */
import { hostname } from "node:os";
import { join } from "node:path";
import { KNOWLEDGE_INDEX_FILE } from "../config/data-root-layout.js";
import { loadConfig } from "../config/config.js";
import { copyIndex } from "../knowledge/copy-index.js";
import type { IndexStore } from "../knowledge/index-store.js";
import { IndexLease, newLeaseHolder } from "../knowledge/index-lease.js";
import { SqliteIndexStore } from "../knowledge/sqlite-index-store.js";
import { PostgresIndexStore } from "../knowledge/postgres-index-store.js";
import { defaultCollection, describeStore } from "../knowledge/store-location.js";

async function main(direction: string | undefined): Promise<void> {
  if (direction !== "to-server" && direction !== "to-local") throw new Error("usage: pnpm knowledge:copy -- to-server | to-local");
  const config = loadConfig();
  if (!config.knowledgeStore) throw new Error("KNOWLEDGE_STORE_URL is not set (in KEY.md or the environment): there is no server store to copy to or from");
  const file = join(config.dataRoot, KNOWLEDGE_INDEX_FILE);
  const collection = config.knowledgeStore.collection ?? defaultCollection(join(config.dataRoot, "knowledge"));
  const holder = direction === "to-server" ? newLeaseHolder() : null;
  const where = describeStore({ kind: "postgres", url: config.knowledgeStore.url, collection, holder: "" }, config.dataRoot);
  const server = await PostgresIndexStore.open({ url: config.knowledgeStore.url, collection, holder });
  let local: SqliteIndexStore | null = null;
  let lease: IndexLease | null = null;
  try {
    if (holder) {
      lease = new IndexLease(server.pool, collection, holder, config.knowledgeStore.leaseMs, `${hostname()}:${join(config.dataRoot, "knowledge")}`);
      if (!(await lease.acquire({ running: true, done: 0, total: 0, current: null }))) {
        const indexer = await lease.indexer();
        throw new Error(`another workbench${indexer ? ` (${indexer.host}, pid ${indexer.pid})` : ""} indexes collection ${collection}: stop it first`);
      }
    }
    local = SqliteIndexStore.open(file);
    const [from, to]: [IndexStore, IndexStore] = direction === "to-server" ? [local, server] : [server, local];
    console.log(`copying the knowledge index ${direction === "to-server" ? `from ${file} to ${where}, collection ${collection}` : `from ${where}, collection ${collection}, to ${file}`}`);
    const started = performance.now();
    const report = await copyIndex(from, to, (done, total) => {
      if (done % 500 === 0 || done === total) process.stdout.write(`  ${done} of ${total} documents\n`);
    });
    console.log(`copied ${report.documents} documents, ${report.chunks} chunks (${report.vectors} with their vectors) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await lease?.release().catch(() => {});
    local?.close();
    await server.close();
  }
}

main(process.argv[2]).catch((err: Error) => {
  console.error(`knowledge:copy: ${err.message}`);
  process.exit(1);
});
