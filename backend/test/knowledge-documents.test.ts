import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KnowledgeDocument, KnowledgeRemoveReply, KnowledgeSearchReply, KnowledgeStatusReply, KnowledgeUploadReply, ToolResultEvent } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_DOCUMENT_BYTES } from "../src/knowledge/document-kinds.js";
import { sandboxExpected } from "../test-support/tool-harness.js";
import { chat, postJson, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

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

  it("names with control or bidirectional characters, or over 255 bytes, are 422 with nothing written, never a 500", async () => {
    wb = await startWorkbench();
    const before = await filesUnder(join(wb.dataRoot, "knowledge"));
    const names = [
      "report\u202Etxt.md", // a right-to-left override: shows as "reportdm.txt"
      "two\nlines.md",
      "esc\u001b[31mred.md",
      "isolate\u2067x.md",
      `${"é".repeat(134)}.md`, // 268 characters' worth of UTF-8 bytes in 136 characters
      `${"a".repeat(267)}.md`,
    ];
    for (const name of names) {
      const reply = await upload(name, "x");
      expect(reply.status, JSON.stringify(name)).toBe(422);
      const { error } = (await reply.json()) as { error: string };
      expect(error).toMatch(/nothing was written/i);
      // The refusal never echoes a raw control character back.
      expect(error).not.toMatch(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u);
    }
    expect(await filesUnder(join(wb.dataRoot, "knowledge"))).toEqual(before);
  });

  it("a deleted document leaves no copy of its text where the agent's tools can read (the trash and the index are out of their reach)", async () => {
    wb = await startWorkbench({
      script: (body) => {
        const done = body.messages.filter((m) => m.role === "tool").length;
        const calls = [
          { name: "terminal", args: { command: 'grep -rl "quo""kka vault" . ; ls storage; echo end' } },
          { name: "read_file", args: { path: `storage/trash/knowledge/${trashName}` } },
          { name: "read_file", args: { path: "storage/knowledge/index.db-wal" } },
        ];
        return done < calls.length ? { toolCalls: [calls[done]] } : { content: "looked" };
      },
    });
    let trashName = "";
    const secret = "The quokka vault combination is 4417 under the zanzibar clock.";
    expect((await upload("vault.md", `${secret}\n`)).status).toBe(201);
    expect((await search("quokka vault")).results).toHaveLength(1);
    const removed = (await (await remove("knowledge/vault.md")).json()) as KnowledgeRemoveReply;
    trashName = removed.trash;
    expect((await search("quokka vault")).results).toEqual([]);
    // The index keeps no readable copy of the text (overwritten, the write-ahead log emptied).
    for (const file of await readdir(join(wb.dataRoot, "storage/knowledge"))) {
      expect((await readFile(join(wb.dataRoot, "storage/knowledge", file))).includes(Buffer.from("quokka vault combination")), file).toBe(false);
    }
    const events = await chat(wb, "look for the vault");
    const results = events.filter((e): e is ToolResultEvent => e.type === "tool_result");
    for (const result of results) expect(result.output).not.toContain("4417");
    if (sandboxExpected().available) expect(results[0].output).toMatch(/cannot access 'storage': No such file or directory\nend/);
    expect(results[1]).toMatchObject({ ok: false, output: expect.stringMatching(/storage\/ holds the workbench's indexes and its trash; no tool reads it/) });
    expect(results[2]).toMatchObject({ ok: false });
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
