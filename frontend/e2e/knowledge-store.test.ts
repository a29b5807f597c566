/**
 * The Knowledge view with the index on PostgreSQL (a real engine started here): where the index lives
 * (never the password), who indexes the collection, and the server gone: a warning, not a broken view.
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PostgresEngine, startPostgresEngine } from "../../backend/test-support/postgres-engine";
import { startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

const PASSWORD = "ui-Secret-9052";

describe.skipIf(!chromiumAvailable)("the Knowledge view on a PostgreSQL store", () => {
  const session = browserSession("knowledge-store");
  let engine: PostgresEngine;
  beforeAll(async () => {
    engine = await startPostgresEngine({ vector: true });
  }, 60_000);
  afterAll(async () => engine?.close());

  it("names the server and the collection without the password, says this workbench indexes it, and warns while the server is down", async () => {
    const dataRoot = await mkdtemp(join(tmpdir(), "moc-ui-pg-"));
    await mkdir(join(dataRoot, "knowledge"), { recursive: true });
    await writeFile(join(dataRoot, "knowledge", "falcons.md"), "# Falcons\n\nThe peregrine falcon is the fastest bird in a dive.\n");
    const wb = session.use(await startWorkbench({ dataRoot, env: { KNOWLEDGE_STORE_URL: engine.url(PASSWORD), KNOWLEDGE_COLLECTION: "ui_kb", KNOWLEDGE_LEASE_MS: "1500" } }));
    const view = await session.open(wb.url);
    const { page } = view;
    await page.getByTestId("nav-knowledge").click();
    const store = page.getByTestId("knowledge-store");
    await expect.poll(() => store.innerText(), { timeout: 20_000 }).toContain(`Index on PostgreSQL: postgres://postgres@127.0.0.1:${engine.port}/postgres · collection ui_kb`);
    await expect.poll(() => page.getByTestId("knowledge-indexer").innerText(), { timeout: 20_000 }).toBe("This workbench indexes the collection");
    expect(await store.innerText()).toContain("Vectors searched by pgvector (HNSW)");
    expect(await page.content()).not.toContain(PASSWORD);

    await engine.stop();
    try {
      await expect.poll(() => store.innerText(), { timeout: 20_000 }).toContain("The knowledge store cannot be reached");
      expect(await page.content()).not.toContain(PASSWORD);
    } finally {
      await engine.start();
    }
    await expect.poll(() => store.innerText(), { timeout: 60_000 }).not.toContain("cannot be reached");
  }, 120_000);
});
