import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentReader } from "./document-reader.js";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "moc-reader-"));
  await mkdir(join(root, "knowledge"));
  await writeFile(join(root, "knowledge", "a.md"), "Sauerkraut is fermented cabbage.\n\nIt keeps for months.\n");
});
afterAll(async () => rm(root, { recursive: true, force: true }));

describe("DocumentReader", () => {
  it("reads and chunks a document in its worker, with terms and offline vectors", async () => {
    const reader = new DocumentReader(30_000);
    const result = await reader.read({ dataRoot: root, path: "knowledge/a.md", maxBytes: 1000, offlineVectors: true });
    await reader.close();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.chunks[0]).toMatchObject({ index: 0, line: 1, text: expect.stringContaining("Sauerkraut") });
    expect(result.chunks[0].terms.split(" ")).toContain("sauerkraut");
    expect(result.vectors?.length).toBe(result.dims * result.chunks.length);
  });

  it("a close while the worker is still starting ends the pending read instead of leaving it waiting", async () => {
    const reader = new DocumentReader(30_000);
    const pending = reader.read({ dataRoot: root, path: "knowledge/a.md", maxBytes: 1000, offlineVectors: false });
    await reader.close();
    expect(await pending).toMatchObject({ ok: false });
    expect(await reader.read({ dataRoot: root, path: "knowledge/a.md", maxBytes: 1000, offlineVectors: false })).toMatchObject({
      ok: false,
      reason: "the knowledge base closed",
    });
  });

  it("a document over the size limit is a result with its reason, not a throw", async () => {
    const reader = new DocumentReader(30_000);
    const result = await reader.read({ dataRoot: root, path: "knowledge/a.md", maxBytes: 10, offlineVectors: false });
    await reader.close();
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/over the 10-byte limit/) });
  });
});
