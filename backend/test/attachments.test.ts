/**
 * Files and images with a message (issue 39, the server's part): uploaded, checked for what they
 * are, and sent to the model the way OpenAI's chat API takes them: images as `image_url` parts
 * (scaled, metadata gone), text and documents inline. A scripted OpenAI-compatible server over real
 * HTTP records what the model was sent.
 */
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync, zipSync } from "fflate";
import sharp from "sharp";
import type { Attachment, SessionDetail } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { solidPng } from "../test-support/images.js";
import { pagedPdf } from "../test-support/minimal-pdf.js";
import { docx } from "../test-support/office-fixtures.js";
import { type ChatRequestBody, lastMessage } from "../test-support/scripted-model-server.js";
import { fetchSession, postJson, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

async function upload(name: string, bytes: Uint8Array): Promise<Response> {
  return fetch(`${wb!.url}/api/attachments?filename=${encodeURIComponent(name)}`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body: bytes });
}
async function attach(name: string, bytes: Uint8Array): Promise<Attachment> {
  const response = await upload(name, bytes);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Attachment;
}
const send = (body: Record<string, unknown>) => postJson(`${wb!.url}/api/chat`, { stream: false, ...body });

/** The parts of the user message a request ended with. */
function lastUserParts(body: ChatRequestBody): Array<{ type: string; text?: string; image_url?: { url: string } }> {
  const content = lastMessage(body).content;
  return typeof content === "string" ? [{ type: "text", text: content }] : (content as never);
}
const imageParts = (body: ChatRequestBody) => body.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type: string; image_url?: { url: string } }>).filter((p) => p.type === "image_url") : []));

/** A 3,000 × 1,500 JPEG with a camera name and GPS position in its EXIF. */
const photoWithGps = () =>
  sharp({ create: { width: 3000, height: 1500, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .jpeg()
    .withExif({ IFD0: { Make: "TestCam-7Q" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 24/1", GPSLongitudeRef: "E", GPSLongitude: "2/1 21/1 3/1" } })
    .toBuffer();

/** A workbench whose default profile takes images (as Test connection would have marked it). */
async function visionWorkbench() {
  wb = await startWorkbench({ script: () => ({ content: "Seen." }) });
  const saved = await fetch(`${wb.url}/api/models/default`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ base_url: wb.model.baseUrl, model: "scripted", capabilities: { vision: true } }),
  });
  expect(saved.status).toBe(200);
  return wb;
}

describe("what the model gets", () => {
  it("an image goes as an image_url part, scaled to 2,048 px and without its EXIF or GPS; the next turn sends it again", async () => {
    await visionWorkbench();
    const photo = await photoWithGps();
    expect((await sharp(photo).metadata()).exif?.toString("latin1")).toContain("TestCam-7Q");
    const image = await attach("holiday.jpg", photo);
    expect(image).toMatchObject({ name: "holiday.jpg", type: "image/jpeg", kind: "image", size: photo.length });

    const reply = await send({ message: "what is in this picture?", attachments: [image.id] });
    expect(reply.status).toBe(200);
    const { session_id: id } = (await reply.json()) as { session_id: string };
    const parts = lastUserParts(wb!.model.requests[0].body);
    expect(parts[0].text).toMatch(/^what is in this picture\?\n\n\[Image holiday\.jpg is also a file the tools can read: attachments\/[\w-]+\/holiday\.jpg\]$/);
    const url = parts.find((p) => p.type === "image_url")!.image_url!.url;
    expect(url).toMatch(/^data:image\/jpeg;base64,/);
    const sent = await sharp(Buffer.from(url.split(",")[1], "base64")).metadata();
    expect([sent.width, sent.height]).toEqual([2048, 1024]);
    expect(sent.exif).toBeUndefined();

    // Stored by reference: the user's entry names it; the bytes are not in the session file.
    const session = (await fetchSession(wb!.url, id)) as SessionDetail;
    expect(session.entries.find((e) => e.type === "user")).toMatchObject({ attachments: [expect.objectContaining({ id: image.id, name: "holiday.jpg" })] });
    expect(JSON.stringify(session.entries)).not.toContain("base64");

    await send({ message: "and the colour?", session_id: id });
    expect(imageParts(wb!.model.requests[1].body)).toHaveLength(1);
    // Its bytes come back as uploaded, for the page's thumbnail.
    const back = await fetch(`${wb!.url}/api/attachments/${image.id}`);
    expect(back.headers.get("content-type")).toBe("image/jpeg");
    expect(Buffer.from(await back.arrayBuffer()).equals(photo)).toBe(true);
  });

  it("a CSV goes inline in a fenced block headed by its name; a long one is cut where the budget ends, and says so", async () => {
    wb = await startWorkbench({ script: () => ({ content: "Read." }) });
    const csv = await attach("data.csv", new TextEncoder().encode("city,temp\nParis,21\nLyon,24\n"));
    expect(csv).toMatchObject({ kind: "text", type: "text/plain" });
    const long = await attach("long.txt", new TextEncoder().encode("x".repeat(50_000)));
    await send({ message: "sum the temps", attachments: [csv.id, long.id] });
    const text = lastUserParts(wb.model.requests[0].body)[0].text!;
    expect(text).toMatch(/Attached file: data\.csv \(the tools read it at attachments\/[\w-]+\/data\.csv\)\n```\ncity,temp\nParis,21\nLyon,24\n\n```/);
    expect(text).toMatch(/long\.txt: only its first 20,000 characters are above; 30,000 more were not sent: read the whole file at attachments\/[\w-]+\/long\.txt/);
  });

  it("the tools read an attachment at its path: Python sums an attached CSV's column; nothing can write there", async () => {
    wb = await startWorkbench({
      script: (body) => {
        const last = lastMessage(body);
        if (last.role === "tool") return { content: `Python said: ${String(last.content)}` };
        const path = /the tools read it at (\S+)\)/.exec(JSON.stringify(body.messages))?.[1];
        return {
          toolCalls: [
            { id: "call_py", name: "python_repl", args: { code: `import csv\nrows = list(csv.DictReader(open("${path}")))\nprint("TOTAL", sum(int(r["temp"]) for r in rows))` } },
            { id: "call_write", name: "terminal", args: { command: `echo changed > ${path}; cat ${path}` } },
          ],
        };
      },
    });
    const csv = await attach("temps.csv", new TextEncoder().encode("city,temp\nParis,21\nLyon,24\nNice,25\n"));
    const reply = (await (await send({ message: "add up the temps", attachments: [csv.id] })).json()) as { events: Array<{ type: string; id?: string; output?: string }> };
    const results = reply.events.filter((e) => e.type === "tool_result");
    expect(results.find((r) => r.id === "call_py")?.output).toContain("TOTAL 70");
    // Read-only for the tools: the write fails and the file is as it was.
    expect(results.find((r) => r.id === "call_write")?.output).toMatch(/Read-only file system|Permission denied/);
    expect(results.find((r) => r.id === "call_write")?.output).toContain("Paris,21");
  });

  it("a PDF's text arrives with its page marks, a Word document's in order", async () => {
    wb = await startWorkbench({ script: () => ({ content: "Read." }) });
    const pdf = await attach("report.pdf", pagedPdf([["Quarterly figures intro"], ["Revenue rose PAGE-TWO-MARK"]]));
    const word = await attach("memo.docx", docx(["First paragraph of the memo.", "Second paragraph ends it."]));
    expect([pdf.kind, word.kind]).toEqual(["document", "document"]);
    await send({ message: "summarize", attachments: [pdf.id, word.id] });
    const text = lastUserParts(wb.model.requests[0].body)[0].text!;
    expect(text).toMatch(/── page 2 ──\nRevenue rose PAGE-TWO-MARK/);
    expect(text.indexOf("First paragraph")).toBeLessThan(text.indexOf("Second paragraph"));
  });

  it("to a profile not marked for images the message is refused before anything is sent, saying so", async () => {
    wb = await startWorkbench({ script: () => ({ content: "should not be asked" }) });
    const image = await attach("shot.png", await sharp({ create: { width: 20, height: 20, channels: 4, background: "#00f8" } }).png().toBuffer());
    const refused = await send({ message: "look", attachments: [image.id] });
    expect(refused.status).toBe(422);
    const body = (await refused.json()) as { code: string; error: string };
    expect(body.code).toBe("vision_unsupported");
    expect(body.error).toContain("Send the text without shot.png");
    expect(wb.model.requests).toHaveLength(0);
  });
});

describe("bad attachments: a clear error naming the file, nothing else lost", () => {
  it("refuses what it should, with the right status", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    expect((await upload("empty.txt", new Uint8Array(0))).status).toBe(400);
    const big = await upload("huge.bin", new Uint8Array(20 * 1024 * 1024 + 1));
    expect(big.status).toBe(413);
    const zip = await upload("archive.zip", zipSync({ "a.txt": new TextEncoder().encode("hi") }));
    expect(zip.status).toBe(415);
    expect(((await zip.json()) as { error: string }).error).toContain("application/zip");
    const binary = await upload("blob.dat", Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    expect(binary.status).toBe(415);

    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#0a0" } }).png().toBuffer();
    const truncated = await upload("cut.png", png.subarray(0, Math.floor(png.length / 2)));
    expect(truncated.status).toBe(422);
    expect(((await truncated.json()) as { error: string }).error).toContain("cut.png");
    const fakePdf = await upload("fake.pdf", new TextEncoder().encode("%PDF-1.7\nthis is not a PDF at all\n%%EOF\n"));
    expect(fakePdf.status).toBe(422);
    expect(((await fakePdf.json()) as { error: string }).error).toContain("fake.pdf");
    // A real Word file whose document part is swapped for 130 MB of zeros (a few hundred kB packed).
    const bomb = zipSync({ ...unzipSync(docx(["A paragraph."])), "word/document.xml": new Uint8Array(130 * 1024 * 1024) }, { level: 9 });
    const bombed = await upload("bomb.docx", bomb);
    expect(bombed.status).toBe(422);
    expect(((await bombed.json()) as { error: string }).error).toContain("bomb.docx");
  }, 60_000);

  it("more than 10 on a message is a 400; an unknown id, one of another session, or a path is a 404; the message is not stored", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    const note = await attach("note.txt", new TextEncoder().encode("a note"));
    const eleven = Array.from({ length: 11 }, () => note.id);
    expect((await send({ message: "many", attachments: eleven })).status).toBe(400);
    const first = (await (await send({ message: "with a note", attachments: [note.id] })).json()) as { session_id: string };
    // The note is that session's now: another session cannot name it.
    expect((await send({ message: "steal it", attachments: [note.id] })).status).toBe(404);
    for (const id of ["att_000000000000000000000000", "../../KEY.md", "att_../../../etc/passwd"]) {
      expect((await send({ message: "x", session_id: first.session_id, attachments: [id] })).status).toBe(404);
      expect((await fetch(`${wb.url}/api/attachments/${encodeURIComponent(id)}`)).status).toBe(404);
    }
    const session = await fetchSession(wb.url, first.session_id);
    expect(session.entries.filter((e) => e.type === "user")).toHaveLength(1);
    // The same session may send it again.
    expect((await send({ message: "the note again", session_id: first.session_id, attachments: [note.id] })).status).toBe(200);
  });

  it("an HTML attachment is never served as a page on the workbench's origin", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    const page = await attach("page.html", new TextEncoder().encode("<html><body><script>alert(1)</script><p>Hello page</p></body></html>"));
    expect(page).toMatchObject({ kind: "document", type: "text/html" });
    const back = await fetch(`${wb.url}/api/attachments/${page.id}`);
    expect(back.headers.get("content-type")).toBe("application/octet-stream");
    expect(back.headers.get("content-disposition")).toMatch(/^attachment/);
  });
});

describe("an attachment's life with its session", () => {
  const exists = (path: string) => stat(path).then(() => true, () => false);

  it("the Inspector reads a document's text; an image has none", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    const pdf = await attach("report.pdf", pagedPdf([["Intro page"], ["Second page PAGE-TWO"]]));
    const reply = await fetch(`${wb.url}/api/attachments/${pdf.id}/text`);
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as { attachment: Attachment; text: string };
    expect(body.attachment).toMatchObject({ id: pdf.id, name: "report.pdf" });
    expect(body.text).toMatch(/── page 2 ──\nSecond page PAGE-TWO/);
    const image = await attach("dot.png", await solidPng(8, 8));
    expect((await fetch(`${wb.url}/api/attachments/${image.id}/text`)).status).toBe(400);
  });

  it("deleting the session takes its readable copies from the tools; restoring brings them back", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    const csv = await attach("keep.csv", new TextEncoder().encode("a,b\n1,2\n"));
    const { session_id: id } = (await (await send({ message: "hold this", attachments: [csv.id] })).json()) as { session_id: string };
    const copy = join(wb.dataRoot, "attachments", id, "keep.csv");
    expect(await readFile(copy, "utf8")).toBe("a,b\n1,2\n");

    const deleted = (await (await fetch(`${wb.url}/api/sessions/${id}`, { method: "DELETE" })).json()) as { trash: string };
    expect(await exists(join(wb.dataRoot, "attachments", id))).toBe(false);
    const restored = await postJson(`${wb.url}/api/sessions/${id}/restore`, { trash: deleted.trash });
    expect(restored.status).toBe(200);
    expect(await readFile(copy, "utf8")).toBe("a,b\n1,2\n");
    // Its bytes were kept all along: the model still gets it on the next turn.
    await send({ message: "again", session_id: id });
    expect(JSON.stringify(wb.model.requests.at(-1)!.body.messages)).toContain("a,b\\n1,2");
  });

  it("an export carries the attachments' bytes; importing it elsewhere gives a session whose model and tools have them", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    const csv = await attach("travel.csv", new TextEncoder().encode("city,days\nRome,3\n"));
    const { session_id: id } = (await (await send({ message: "plan", attachments: [csv.id] })).json()) as { session_id: string };
    const exported = (await (await fetch(`${wb.url}/api/sessions/${id}/export?format=json`)).json()) as { attachments: Array<{ id: string; data: string }> };
    expect(exported.attachments).toHaveLength(1);
    expect(Buffer.from(exported.attachments[0].data, "base64").toString()).toBe("city,days\nRome,3\n");
    await wb.close();

    // Another workbench, another data root.
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    const imported = await postJson(`${wb.url}/api/sessions/import`, exported);
    expect(imported.status).toBe(201);
    const newId = ((await imported.json()) as { id: string }).id;
    const user = (await fetchSession(wb.url, newId)).entries.find((e) => e.type === "user") as { attachments: Attachment[] };
    expect(user.attachments[0]).toMatchObject({ name: "travel.csv", path: `attachments/${newId}/travel.csv` });
    expect(await readFile(join(wb.dataRoot, user.attachments[0].path!), "utf8")).toBe("city,days\nRome,3\n");
    await send({ message: "go on", session_id: newId });
    expect(JSON.stringify(wb.model.requests.at(-1)!.body.messages)).toContain("Rome,3");

    // An export whose attachment is not what it says is refused whole, naming it; no session is made.
    const before = ((await (await fetch(`${wb.url}/api/sessions`)).json()) as { sessions: unknown[] }).sessions.length;
    const bad = { ...exported, attachments: [{ ...exported.attachments[0], name: "evil.zip", data: Buffer.from(zipSync({ "x.txt": new Uint8Array(4) })).toString("base64") }] };
    const refused = await postJson(`${wb.url}/api/sessions/import`, bad);
    expect(refused.status).toBe(415);
    expect(((await refused.json()) as { error: string }).error).toContain("evil.zip");
    expect(((await (await fetch(`${wb.url}/api/sessions`)).json()) as { sessions: unknown[] }).sessions).toHaveLength(before);
  });

  it("the sweep at start deletes uploads never sent and the bytes of sessions that are gone, and keeps the rest", async () => {
    const dataRoot = await mkdtemp(join(tmpdir(), "moc-sweep-"));
    try {
      wb = await startWorkbench({ dataRoot, script: () => ({ content: "ok" }) });
      const kept = await attach("kept.txt", new TextEncoder().encode("kept text"));
      const { session_id: keptSession } = (await (await send({ message: "keep", attachments: [kept.id] })).json()) as { session_id: string };
      const trashed = await attach("trashed.txt", new TextEncoder().encode("trashed text"));
      const { session_id: trashedSession } = (await (await send({ message: "trash", attachments: [trashed.id] })).json()) as { session_id: string };
      await fetch(`${wb.url}/api/sessions/${trashedSession}`, { method: "DELETE" });
      const gone = await attach("gone.txt", new TextEncoder().encode("gone text"));
      const { session_id: goneSession } = (await (await send({ message: "gone", attachments: [gone.id] })).json()) as { session_id: string };
      const unsent = await attach("unsent.txt", new TextEncoder().encode("unsent text"));
      await wb.close();
      wb = undefined;

      // The session vanishes for good (its file removed by hand), the unsent upload is two days old, and every byte an hour and more.
      await rm(join(dataRoot, "sessions", `${goneSession}.jsonl`));
      const unsentMeta = join(dataRoot, "storage/attachments/meta", `${unsent.id}.json`);
      await writeFile(unsentMeta, JSON.stringify({ ...JSON.parse(await readFile(unsentMeta, "utf8")), created: Date.now() - 2 * 86_400_000 }));
      const old = new Date(Date.now() - 2 * 3_600_000);
      for (const folder of ["storage/attachments/blobs", "storage/attachments/model", "attachments"]) {
        for (const name of await readdir(join(dataRoot, folder))) await utimes(join(dataRoot, folder, name), old, old);
      }

      wb = await startWorkbench({ dataRoot, script: () => ({ content: "ok" }) });
      const status = async (id: string) => (await fetch(`${wb!.url}/api/attachments/${id}`)).status;
      await expect.poll(() => status(unsent.id), { timeout: 10_000 }).toBe(404);
      await expect.poll(() => status(gone.id), { timeout: 10_000 }).toBe(404);
      await expect.poll(() => exists(join(dataRoot, "attachments", goneSession)), { timeout: 10_000 }).toBe(false);
      expect(await status(kept.id)).toBe(200);
      expect(await status(trashed.id)).toBe(200);
      expect(await readFile(join(dataRoot, "attachments", keptSession, "kept.txt"), "utf8")).toBe("kept text");
      const blobs = await readdir(join(dataRoot, "storage/attachments/blobs"));
      expect(blobs.map((b) => b.split(".")[0]).sort()).toEqual([kept.sha256, trashed.sha256].sort());
    } finally {
      await wb?.close();
      wb = undefined;
      await rm(dataRoot, { recursive: true, force: true });
    }
  });
});

describe("the default profile's images, from the Model dialog", () => {
  it("Test connection tries an image; saving what it found lets an image go to the default profile", async () => {
    wb = await startWorkbench({ script: () => ({ content: "Red." }) });
    const settings = { base_url: wb.model.baseUrl, model: "scripted" };
    const tested = (await (await postJson(`${wb.url}/api/model/test`, settings)).json()) as { checks: Array<{ name: string; ok: boolean }> };
    const vision = tested.checks.find((c) => c.name === "vision");
    expect(vision?.ok).toBe(true);
    expect(JSON.stringify(wb.model.requests.map((r) => r.body.messages))).toContain("data:image/png;base64,");

    const image = await attach("dot.png", await solidPng(8, 8));
    expect((await send({ message: "look", attachments: [image.id] })).status).toBe(422);
    const saved = await fetch(`${wb.url}/api/model`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...settings, capabilities: { vision: true } }) });
    expect(saved.status).toBe(200);
    const models = JSON.parse(await readFile(join(wb.dataRoot, "MODELS.json"), "utf8")) as { profiles: Record<string, { capabilities?: { vision?: boolean } }> };
    expect(models.profiles.default.capabilities?.vision).toBe(true);
    const image2 = await attach("dot2.png", await solidPng(9, 9, "#f00"));
    expect((await send({ message: "look again", attachments: [image2.id] })).status).toBe(200);
  });
});
