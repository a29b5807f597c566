import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KnowledgeDocument, KnowledgeRemoveReply, KnowledgeSearchReply, KnowledgeStatusReply, KnowledgeUploadReply } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_DOCUMENT_BYTES } from "../src/knowledge/document-kinds.js";
import { postJson, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
const outsides: string[] = [];
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  for (const dir of outsides.splice(0)) await rm(dir, { recursive: true, force: true });
});

const upload = (name: string, body: Uint8Array | string, type = "application/octet-stream") =>
  fetch(`${wb!.url}/api/knowledge/documents?filename=${encodeURIComponent(name)}`, { method: "POST", headers: { "content-type": type }, body });
const remove = (path: string) => fetch(`${wb!.url}/api/knowledge/documents?path=${encodeURIComponent(path)}`, { method: "DELETE" });
const documents = async () => ((await (await fetch(`${wb!.url}/api/knowledge/documents`)).json()) as { documents: KnowledgeDocument[] }).documents;
const status = async () => (await (await fetch(`${wb!.url}/api/knowledge/status`)).json()) as KnowledgeStatusReply;
const search = async (q: string) => (await (await fetch(`${wb!.url}/api/knowledge/search?q=${encodeURIComponent(q)}&k=5`)).json()) as KnowledgeSearchReply;
const idle = () => expect.poll(async () => (await status()).indexing.running, { timeout: 15_000 }).toBe(false);

/** Every regular file under a folder, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) out.push(join(entry.parentPath, entry.name).slice(dir.length + 1));
  return out.sort();
}

describe("adding and removing documents through the API", () => {
  it("an upload is stored byte for byte and indexed (201); the same name again is 409 with the file untouched", async () => {
    wb = await startWorkbench();
    await idle();
    // Bytes that are not valid UTF-8 text as a whole (a Latin-1 é) must arrive exactly as sent.
    const bytes = Buffer.concat([Buffer.from("# Kombucha\n\nA fermented tea, brewed with a SCOBY for ten days. Caf"), Buffer.from([0xe9]), Buffer.from(".\n")]);
    const added = await upload("drinks/kombucha.md", bytes);
    expect(added.status).toBe(201);
    expect((await added.json()) as KnowledgeUploadReply).toEqual({ path: "knowledge/drinks/kombucha.md", bytes: bytes.byteLength, state: "indexed", chunks: 1 });
    expect(Buffer.compare(await readFile(join(wb.dataRoot, "knowledge/drinks/kombucha.md")), bytes)).toBe(0);
    expect((await search("scoby tea")).results[0]).toMatchObject({ source: "knowledge/drinks/kombucha.md" });
    // The Latin-1 byte was read as é, not as a replacement character.
    expect((await search("scoby tea")).results[0].text).toContain("Café.");

    const again = await upload("drinks/kombucha.md", "something else");
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toMatch(/exists already/);
    expect(Buffer.compare(await readFile(join(wb.dataRoot, "knowledge/drinks/kombucha.md")), bytes)).toBe(0);
  });

  it("names that leave knowledge/ or go through a link are 422 with nothing written anywhere; over the limit is 413", async () => {
    wb = await startWorkbench();
    const outside = await mkdtemp(join(tmpdir(), "moc-outside-"));
    outsides.push(outside);
    await symlink(outside, join(wb.dataRoot, "knowledge/escape"));
    const before = await filesUnder(join(wb.dataRoot, "knowledge"));

    for (const name of ["../memory/evil.md", "a/../../evil.md", "/etc/evil.md", "escape/evil.md", "notes/.hidden.md", "evil.exe"]) {
      const reply = await upload(name, "x");
      expect(reply.status, name).toBe(422);
      expect(((await reply.json()) as { error: string }).error, name).toMatch(/nothing was written/i);
    }
    expect(await readdir(outside)).toEqual([]);
    const tooBig = await upload("big.txt", Buffer.alloc(MAX_DOCUMENT_BYTES + 1, 0x61));
    expect(tooBig.status).toBe(413);
    expect((await upload("plain.md", "x", "application/json")).status).toBe(400);
    // Nothing new in knowledge/ (no file, no temp file left behind), nothing through the link.
    expect(await filesUnder(join(wb.dataRoot, "knowledge"))).toEqual(before);
  });

  it("a delete moves the file to the trash byte for byte, out of the list and the results; a restore brings it back", async () => {
    wb = await startWorkbench();
    const text = "Miso is soybean paste fermented with koji for months.\n";
    await mkdir(join(wb.dataRoot, "knowledge/pantry"), { recursive: true });
    await writeFile(join(wb.dataRoot, "knowledge/pantry/miso.md"), text);
    await idle();
    await expect.poll(async () => (await search("miso koji")).results.length, { timeout: 5000 }).toBe(1);

    const removed = await remove("knowledge/pantry/miso.md");
    expect(removed.status).toBe(200);
    const { trash, path } = (await removed.json()) as KnowledgeRemoveReply;
    expect(path).toBe("knowledge/pantry/miso.md");
    await expect(stat(join(wb.dataRoot, "knowledge/pantry/miso.md"))).rejects.toThrow();
    expect(await readFile(join(wb.dataRoot, "storage/trash/knowledge", trash), "utf8")).toBe(text);
    expect((await documents()).map((d) => d.path)).not.toContain("knowledge/pantry/miso.md");
    expect((await search("miso koji")).results).toEqual([]);

    expect((await remove("knowledge/pantry/miso.md")).status).toBe(404);
    expect((await remove("../outside.md")).status).toBe(403);

    const restored = await postJson(`${wb.url}/api/knowledge/documents/restore`, { trash });
    expect(restored.status).toBe(200);
    expect(await readFile(join(wb.dataRoot, "knowledge/pantry/miso.md"), "utf8")).toBe(text);
    await expect.poll(async () => (await search("miso koji")).results.length, { timeout: 5000 }).toBe(1);
    expect((await postJson(`${wb.url}/api/knowledge/documents/restore`, { trash })).status).toBe(404);
    expect((await postJson(`${wb.url}/api/knowledge/documents/restore`, { trash: "../../x" })).status).toBe(400);
  });
});
