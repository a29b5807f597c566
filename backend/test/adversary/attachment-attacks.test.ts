/**
 * Round 4 on attachments: a 43-byte GIF that declares a 10,000 × 10,000 screen (finding 4), names a
 * file system cannot take or a person misreads (10), uploads no message ever sends (11), exports
 * that carried a photo's GPS position (12), and one session's tools reading another's files (13).
 */
import type { Attachment } from "@mini-openclaw/protocol";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { startAttackedServer, type AttackedServer } from "../../test-support/adversary.js";
import { lastMessage } from "../../test-support/scripted-model-server.js";
import { sandboxExpected } from "../../test-support/tool-harness.js";
import { postJson, startWorkbench, type Workbench } from "../../test-support/workbench-harness.js";

let wb: Workbench | undefined;
let attacked: AttackedServer | undefined;
afterEach(async () => {
  await wb?.close();
  await attacked?.close();
  wb = attacked = undefined;
});

const upload = (url: string, name: string, bytes: Uint8Array) =>
  fetch(`${url}/api/attachments?filename=${encodeURIComponent(name)}`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body: bytes });

/** A GIF of a few bytes whose screen and only frame say width × height (GIF89a, a 2-colour table, almost no pixel data). */
function tinyGifDeclaring(width: number, height: number): Buffer {
  const u16 = (n: number) => [n & 0xff, n >> 8];
  return Buffer.from([
    ...Buffer.from("GIF89a"),
    ...u16(width), ...u16(height), 0x80, 0, 0, // screen, global colour table of 2
    0, 0, 0, 255, 255, 255, // the table
    0x2c, ...u16(0), ...u16(0), ...u16(width), ...u16(height), 0, // one frame as large as the screen
    2, 2, 0x4c, 0x01, 0, // LZW: code size 2, one sub-block
    0x3b,
  ]);
}

describe("an image that declares more than it holds (finding 4)", () => {
  it("16 uploads at once of a 10,000 × 10,000 GIF are refused from the header: the server answers and its memory stays", async () => {
    attacked = await startAttackedServer();
    const gif = tinyGifDeclaring(10_000, 10_000);
    expect(gif.length).toBeLessThanOrEqual(43);
    await attacked.resetPeak();
    const before = await attacked.rssMb();
    let slowestHealth = 0;
    let done = false;
    const probing = (async () => {
      while (!done) {
        slowestHealth = Math.max(slowestHealth, await attacked!.healthMs());
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const replies = await Promise.all(Array.from({ length: 16 }, (_, i) => upload(attacked!.url, `screen-${i}.gif`, gif)));
    done = true;
    await probing;
    for (const reply of replies) {
      expect(reply.status).toBe(413);
      expect(((await reply.json()) as { error: string }).error).toMatch(/declares 10000 × 10000 pixels \(100 million\); a gif attachment may have at most 24 million/);
    }
    // A liveness bound, not a speed figure: decoding 100 million pixels stalled it for seconds; refused from the
    // header it answers at once, though a suite running beside it on two cores once made that 211 ms.
    expect(slowestHealth).toBeLessThan(1000);
    expect((await attacked.peakRssMb()) - before).toBeLessThan(200);
    expect(attacked.alive()).toBe(true);
  });

  it("an image within the budget still uploads, and a large photo (decoded shrunk) too", async () => {
    wb = await startWorkbench();
    const png = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: "#123456" } }).png().toBuffer();
    expect((await upload(wb.url, "screen.png", png)).status).toBe(201);
    const photo = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: "#654321" } }).jpeg().toBuffer();
    expect((await upload(wb.url, "photo.jpg", photo)).status).toBe(201);
  });
});

describe("attachment names (finding 10)", () => {
  it("a name a file system cannot take, '.' and '..', and a direction override are refused at upload, saying why", async () => {
    wb = await startWorkbench();
    const text = new TextEncoder().encode("hello\n");
    const cases: Array<[string, RegExp]> = [
      [`${"报告".repeat(40)}.txt`, /is 244 bytes long \(UTF-8\); an attachment's name may have at most 180/],
      [".", /"\." is not a file name/],
      ["..", /"\.\." is not a file name/],
      ["invoice\u202etxt.exe", /reorders how its text is shown/],
    ];
    for (const [name, why] of cases) {
      const reply = await upload(wb.url, name, text);
      expect(reply.status, name).toBe(400);
      expect(((await reply.json()) as { error: string }).error).toMatch(why);
    }
    // A long name that fits is taken, and sent: no ENAMETOOLONG later.
    const fits = await upload(wb.url, `${"报".repeat(58)}.txt`, text);
    expect(fits.status).toBe(201);
    const { id } = (await fits.json()) as Attachment;
    expect((await postJson(`${wb.url}/api/chat`, { message: "read it", stream: false, attachments: [id] })).status).toBe(200);
  });
});

describe("uploads no message sends (finding 11)", () => {
  it("are capped in count: the 201st is refused with 429 and what to do; sending one frees a place", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const reply = await upload(wb.url, `n${i}.txt`, new TextEncoder().encode(`note ${i}\n`));
      expect(reply.status).toBe(201);
      ids.push(((await reply.json()) as Attachment).id);
    }
    const over = await upload(wb.url, "one-more.txt", new TextEncoder().encode("x\n"));
    expect(over.status).toBe(429);
    expect(((await over.json()) as { error: string; code: string })).toMatchObject({ code: "limit_reached", error: expect.stringMatching(/200 uploads .* that no message has sent yet/) });
    expect((await postJson(`${wb.url}/api/chat`, { message: "here", stream: false, attachments: [ids[0]] })).status).toBe(200);
    expect((await upload(wb.url, "one-more.txt", new TextEncoder().encode("x\n"))).status).toBe(201);
  });
});

describe("an export of a session with a photo (finding 12)", () => {
  it("carries the image as the model got it, without EXIF or GPS; the original bytes only when asked for", async () => {
    wb = await startWorkbench({ script: () => ({ content: "Seen." }) });
    await fetch(`${wb.url}/api/models/default`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ base_url: wb.model.baseUrl, model: "scripted", capabilities: { vision: true } }) });
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#a33" } })
      .jpeg()
      .withExif({ IFD0: { Make: "TestCam-7Q" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 24/1", GPSLongitudeRef: "E", GPSLongitude: "2/1 21/1 3/1" } })
      .toBuffer();
    const { id } = (await (await upload(wb.url, "holiday.jpeg", photo)).json()) as Attachment;
    const { session_id: sessionId } = (await (await postJson(`${wb.url}/api/chat`, { message: "look", stream: false, attachments: [id] })).json()) as { session_id: string };

    const stripped = (await (await fetch(`${wb.url}/api/sessions/${sessionId}/export?format=json`)).json()) as { attachments: Array<{ name: string; data: string; type: string }> };
    const data = Buffer.from(stripped.attachments[0].data, "base64");
    expect(data.includes("TestCam-7Q")).toBe(false);
    expect((await sharp(data).metadata()).exif).toBeUndefined();
    expect(stripped.attachments[0]).toMatchObject({ name: "holiday.jpg", type: "image/jpeg" });
    // It imports again as an image.
    expect((await postJson(`${wb.url}/api/sessions/import`, stripped)).status).toBe(201);

    const original = (await (await fetch(`${wb.url}/api/sessions/${sessionId}/export?format=json&images=original`)).json()) as { attachments: Array<{ data: string }> };
    expect(Buffer.from(original.attachments[0].data, "base64").equals(photo)).toBe(true);
  });
});

const { available } = sandboxExpected();
if (!available) console.warn("\n!!! attachment-attacks: bubblewrap is missing, so the per-session attachment mount is not tested (CI has it) !!!\n");

describe.runIf(available)("the sandbox and other sessions' attachments (finding 13)", () => {
  it("a session's tools see its own attachments folder and no other", async () => {
    wb = await startWorkbench({
      script: (body) => (lastMessage(body).role === "tool" ? { content: String(lastMessage(body).content) } : { toolCalls: [{ name: "terminal", args: { command: "find attachments -type f | sort; cat attachments/*/*.txt" } }] }),
    });
    const mine = (await (await upload(wb.url, "mine.txt", new TextEncoder().encode("MINE-7731\n"))).json()) as Attachment;
    const theirs = (await (await upload(wb.url, "theirs.txt", new TextEncoder().encode("THEIRS-4410\n"))).json()) as Attachment;
    const other = (await (await postJson(`${wb.url}/api/chat`, { message: "keep this", stream: false, attachments: [theirs.id] })).json()) as { session_id: string; content: string };
    const reply = (await (await postJson(`${wb.url}/api/chat`, { message: "list what you can read", stream: false, attachments: [mine.id] })).json()) as { session_id: string; content: string };
    expect(reply.content).toContain(`attachments/${reply.session_id}/mine.txt`);
    expect(reply.content).toContain("MINE-7731");
    expect(reply.content).not.toContain(other.session_id);
    expect(reply.content).not.toContain("THEIRS-4410");
  });
});
