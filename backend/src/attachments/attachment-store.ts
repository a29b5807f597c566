/**
 * Attachments, stored under `storage/attachments/` (the workbench's own: no tool writes there):
 * each file's bytes once, by their SHA-256 (the same file attached twice is stored once), and per
 * attachment a small record naming it, its kind and the session it belongs to. What the model is
 * sent is made once, at upload: an image scaled to at most 2,048 px on its longest side and encoded
 * again (so its EXIF and GPS metadata are gone), a text's or document's text. Ids are random and
 * checked by shape, so no id ever names a path.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Attachment } from "@mini-openclaw/protocol";
import { MAX_ATTACHMENT_BYTES } from "@mini-openclaw/protocol";
import { ATTACHMENTS_DIR, STORAGE_DIR } from "../config/data-root-layout.js";
import { decodeText } from "../knowledge/text-encoding.js";
import { UserError } from "../lib/user-error.js";
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { isUnreadable, readConfinedFile } from "../paths/read-confined-file.js";
import { attachmentKind } from "./attachment-kind.js";

const ROOT = `${STORAGE_DIR}/attachments`;
/** Longest side of an image as the model gets it (the bound OpenAI and Anthropic scale to). */
export const MAX_IMAGE_SIDE = 2048;
const ID = /^att_[0-9a-f]{24}$/;
const META_BYTES = 64 * 1024;
const READ_MS = 10_000;

/** An attachment and the session it belongs to (null until a message names it). */
interface Record extends Attachment {
  session: string | null;
  /** The media type of what the model is sent (an image encoded again, or text). */
  model_type: string;
  /** The extension its bytes are stored with (a document's loader reads by it). */
  ext: string | null;
}

/** What the model gets of one attachment. */
export type ModelInput = { kind: "image"; attachment: Attachment; dataUrl: string } | { kind: "text"; attachment: Attachment; text: string };

/** Reads a document's text off the server's thread (the knowledge base's extractor). */
export type ExtractDocument = (path: string, name: string) => Promise<{ text: string }>;

const blobPath = (sha: string, ext: string | null) => `${ROOT}/blobs/${sha}${ext ? `.${ext}` : ""}`;
const modelPath = (sha: string) => `${ROOT}/model/${sha}`;
const metaPath = (id: string) => `${ROOT}/meta/${id}.json`;

/** The file's last path part, without control characters: what the user called it. */
function cleanName(raw: string): string {
  const last = raw.split(/[\\/]/).pop() ?? "";
  const clean = [...last].filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f).join("").trim().slice(0, 200);
  return clean || "attachment";
}

/** The image as the model gets it: first frame, turned upright, at most MAX_IMAGE_SIDE, encoded again without metadata. */
async function modelImage(name: string, bytes: Uint8Array): Promise<{ data: Buffer; type: string }> {
  const { default: sharp } = await import("sharp");
  try {
    const image = sharp(bytes, { failOn: "truncated", limitInputPixels: 100_000_000 }).rotate().resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: "inside", withoutEnlargement: true });
    const { hasAlpha } = await sharp(bytes).metadata();
    return hasAlpha ? { data: await image.png().toBuffer(), type: "image/png" } : { data: await image.jpeg({ quality: 85 }).toBuffer(), type: "image/jpeg" };
  } catch (err) {
    throw new UserError(422, `${name} is not an image that can be read (${(err as Error).message.split("\n")[0].slice(0, 200)}).`);
  }
}

export class AttachmentStore {
  constructor(
    private readonly dataRoot: string,
    private readonly extract: ExtractDocument,
  ) {}

  /** Stores an upload; a 400/413/415/422 names the file and what is wrong with it. */
  async add(rawName: string, bytes: Uint8Array): Promise<Attachment> {
    const name = cleanName(rawName);
    if (bytes.length > MAX_ATTACHMENT_BYTES) throw new UserError(413, `${name} is ${bytes.length} bytes, over the ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB limit for one attachment.`);
    const found = await attachmentKind(name, bytes);
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const blob = blobPath(sha256, found.ext);
    await writeConfinedAtomic(this.dataRoot, blob, bytes);
    let modelType: string;
    if (found.kind === "image") {
      const image = await modelImage(name, bytes);
      await writeConfinedAtomic(this.dataRoot, modelPath(sha256), image.data);
      modelType = image.type;
    } else {
      const text = found.kind === "text" ? decodeText(bytes) : (await this.extract(blob, name)).text;
      if (found.kind === "document" && text.trim() === "") throw new UserError(422, `${name} holds no text that can be read (a scanned document?).`);
      await writeConfinedAtomic(this.dataRoot, modelPath(sha256), text);
      modelType = "text/plain";
    }
    const attachment: Attachment = { id: `att_${randomBytes(12).toString("hex")}`, name, type: found.type, size: bytes.length, kind: found.kind, sha256 };
    const record: Record = { ...attachment, session: null, model_type: modelType, ext: found.ext };
    await writeConfinedAtomic(this.dataRoot, metaPath(attachment.id), JSON.stringify(record));
    return attachment;
  }

  private async record(id: string): Promise<Record> {
    if (!ID.test(id)) throw new UserError(404, `No such attachment: ${id.slice(0, 100)}`);
    try {
      const { data } = await readConfinedFile(this.dataRoot, metaPath(id), { maxBytes: META_BYTES, timeoutMs: READ_MS });
      return JSON.parse(data.toString("utf8")) as Record;
    } catch (err) {
      if (isUnreadable(err) || err instanceof SyntaxError) throw new UserError(404, `No such attachment: ${id}`);
      throw err;
    }
  }

  /**
   * The attachments a message names, made the session's: one not yet used by any message becomes
   * this session's, with a readable copy under `attachments/<session>/` for the tools; one of another
   * session, or unknown, is a 404 (nothing is changed then).
   */
  async claim(ids: string[], sessionId: string): Promise<Attachment[]> {
    const records = await Promise.all(ids.map((id) => this.record(id)));
    for (const record of records) if (record.session !== null && record.session !== sessionId) throw new UserError(404, `No such attachment in this session: ${record.id}`);
    const claimed: Record[] = [];
    for (const record of records) {
      if (record.session !== null) {
        claimed.push(record);
        continue;
      }
      const path = await this.readableCopy(record, sessionId);
      const owned = { ...record, session: sessionId, path };
      await writeConfinedAtomic(this.dataRoot, metaPath(record.id), JSON.stringify(owned));
      claimed.push(owned);
    }
    return claimed.map(({ session: _s, model_type: _m, ext: _e, ...attachment }) => attachment);
  }

  /** The file under its own name in `attachments/<session>/` (a name taken by other bytes gets a number). */
  private async readableCopy(record: Record, sessionId: string): Promise<string> {
    const { data } = await readConfinedFile(this.dataRoot, blobPath(record.sha256, record.ext), { maxBytes: MAX_ATTACHMENT_BYTES, timeoutMs: READ_MS });
    const dot = record.name.lastIndexOf(".");
    const [stem, ext] = dot > 0 ? [record.name.slice(0, dot), record.name.slice(dot)] : [record.name, ""];
    for (let n = 1; n < 1000; n++) {
      const path = `${ATTACHMENTS_DIR}/${sessionId}/${n === 1 ? record.name : `${stem} (${n})${ext}`}`;
      const existing = await readConfinedFile(this.dataRoot, path, { maxBytes: MAX_ATTACHMENT_BYTES, timeoutMs: READ_MS }).catch(() => null);
      if (existing?.data.equals(data)) return path;
      if (existing) continue;
      await writeConfinedAtomic(this.dataRoot, path, data, { mode: 0o644 });
      return path;
    }
    throw new UserError(409, `Too many attachments named ${record.name} in this session.`);
  }

  /** An attachment's bytes as uploaded, and its media type. */
  async bytes(id: string): Promise<{ data: Buffer; type: string; name: string }> {
    const record = await this.record(id);
    const { data } = await readConfinedFile(this.dataRoot, blobPath(record.sha256, record.ext), { maxBytes: MAX_ATTACHMENT_BYTES, timeoutMs: READ_MS });
    return { data, type: record.type, name: record.name };
  }

  /** What the model gets of an attachment: an image as a data URL, or its text. */
  async modelInput(attachment: Attachment): Promise<ModelInput> {
    const record = await this.record(attachment.id);
    const { data } = await readConfinedFile(this.dataRoot, modelPath(record.sha256), { maxBytes: MAX_ATTACHMENT_BYTES * 2, timeoutMs: READ_MS });
    if (record.kind === "image") return { kind: "image", attachment, dataUrl: `data:${record.model_type};base64,${data.toString("base64")}` };
    return { kind: "text", attachment, text: data.toString("utf8") };
  }
}

