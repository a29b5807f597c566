/**
 * Files and images with a message (issue 39, the server's part): uploaded, checked for what they
 * are, and sent to the model the way OpenAI's chat API takes them: images as `image_url` parts
 * (scaled, metadata gone), text and documents inline. A scripted OpenAI-compatible server over real
 * HTTP records what the model was sent.
 */
import { unzipSync, zipSync } from "fflate";
import sharp from "sharp";
import type { Attachment, SessionDetail } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
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
