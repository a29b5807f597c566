/**
 * Attachments, stored under `storage/attachments/` (the workbench's own: no tool writes there):
 * each file's bytes once, by their SHA-256 (the same file attached twice is stored once), and per
 * attachment a small record naming it, its kind and the session it belongs to. What the model is
 * sent is made once, at upload: an image scaled to at most 2,048 px on its longest side and encoded
 * again (so its EXIF and GPS metadata are gone), a text's or document's text. Ids are random and
 * checked by shape, so no id ever names a path.
 */
import { createHash, randomBytes } from "node:crypto";
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { Attachment, ExportedAttachment } from "@mini-openclaw/protocol";
import { MAX_ATTACHMENT_BYTES } from "@mini-openclaw/protocol";
import { ATTACHMENTS_DIR, STORAGE_DIR } from "../config/data-root-layout.js";
import { decodeText } from "../knowledge/text-encoding.js";
import { UserError } from "../lib/user-error.js";
import { removeConfinedFile, writeConfinedAtomic } from "../paths/confined-path.js";
import { inConfinedFolder } from "../paths/dir-handle.js";
import { readConfinedDir } from "../paths/walk-confined-dir.js";
import { isUnreadable, readConfinedFile } from "../paths/read-confined-file.js";
import { attachmentKind } from "./attachment-kind.js";

const ROOT = `${STORAGE_DIR}/attachments`;
/** Longest side of an image as the model gets it (the bound OpenAI and Anthropic scale to). */
export const MAX_IMAGE_SIDE = 2048;
const ID = /^att_[0-9a-f]{24}$/;
const META_BYTES = 64 * 1024;
const READ_MS = 10_000;
/** How long an upload no message names is kept (a message being written, a queued one). */
export const UNCLAIMED_MS = 24 * 60 * 60 * 1000;
/** Bytes younger than this are never swept: their record may be being written. */
const BLOB_GRACE_MS = 60 * 60 * 1000;

/** Which sessions exist, for the sweep: a live one keeps its readable copies, a trashed one its records and bytes. */
export interface SessionsAlive {
  live(id: string): Promise<boolean>;
  trashed(): Promise<Set<string>>;
}

/** An attachment and the session it belongs to (null until a message names it). */
interface Record extends Attachment {
  session: string | null;
  /** When it was uploaded (ms): an upload no message names is dropped by the sweep after UNCLAIMED_MS. */
  created?: number;
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
    const image = sharp(bytes, { failOn: "truncated", limitInputPixels: 100_000_000 });
    // The header alone (no decode): whether a transparent image must stay PNG.
    const { hasAlpha } = await image.metadata();
    image.rotate().resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: "inside", withoutEnlargement: true });
    return hasAlpha ? { data: await image.png().toBuffer(), type: "image/png" } : { data: await image.jpeg({ quality: 85 }).toBuffer(), type: "image/jpeg" };
  } catch (err) {
    throw new UserError(422, `${name} is not an image that can be read (${(err as Error).message.split("\n")[0].slice(0, 200)}).`);
  }
}

/** What the API and the session file know of a record. */
const publicOf = ({ session: _s, created: _c, model_type: _m, ext: _e, ...attachment }: Record): Attachment => attachment;

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
    const record: Record = { ...attachment, session: null, created: Date.now(), model_type: modelType, ext: found.ext };
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
    return claimed.map(publicOf);
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

  /** The text the model gets of a text file or document (the Inspector shows it); an image has none (400). */
  async text(id: string): Promise<{ attachment: Attachment; text: string }> {
    const record = await this.record(id);
    if (record.kind === "image") throw new UserError(400, `${record.name} is an image; it has no text.`);
    const input = await this.modelInput(publicOf(record));
    return { attachment: publicOf(record), text: input.kind === "text" ? input.text : "" };
  }

  /**
   * A deleted session's readable copies go with it, so no tool reads them any more. Its records and
   * bytes stay while the session sits in the trash (a restore makes the copies again).
   */
  async dropCopies(sessionId: string): Promise<void> {
    await inConfinedFolder(this.dataRoot, ATTACHMENTS_DIR, {}, (dir) => dir.remove(sessionId)).catch((err) => {
      if (!(err instanceof UserError)) throw err; // no attachments folder: nothing to drop
    });
  }

  /** The readable copies of a restored session's attachments, made again. */
  async restoreCopies(sessionId: string, attachments: Attachment[]): Promise<void> {
    for (const attachment of attachments) {
      const record = await this.record(attachment.id).catch(() => null);
      if (record?.session === sessionId) await this.readableCopy(record, sessionId);
    }
  }

  /** A session's attachments with their bytes, for an export. */
  async exported(attachments: Attachment[]): Promise<ExportedAttachment[]> {
    const out: ExportedAttachment[] = [];
    for (const attachment of attachments) {
      const { data } = await this.bytes(attachment.id);
      out.push({ ...attachment, data: data.toString("base64") });
    }
    return out;
  }

  /**
   * An export's attachments stored again (checked like any upload) and made the new session's. The
   * map takes each exported id to its new attachment.
   */
  async imported(exported: ExportedAttachment[], sessionId: string): Promise<Map<string, Attachment>> {
    const map = new Map<string, Attachment>();
    for (const item of exported) {
      const added = await this.add(item.name, Buffer.from(item.data, "base64"));
      const [claimed] = await this.claim([added.id], sessionId);
      map.set(item.id, claimed);
    }
    return map;
  }

  /**
   * Deletes what nothing needs: records of sessions that are gone (neither live nor in the trash) and
   * uploads no message named within UNCLAIMED_MS, then the bytes no record names, then the readable
   * copies of sessions that are not live. Run at start, off the request path.
   */
  async sweep(sessions: SessionsAlive, now = Date.now()): Promise<{ records: number; bytes: number; folders: number }> {
    const removed = { records: 0, bytes: 0, folders: 0 };
    const trashed = await sessions.trashed();
    const kept = new Set<string>();
    for (const entry of (await readConfinedDir(this.dataRoot, `${ROOT}/meta`)) ?? []) {
      const id = entry.name.replace(/\.json$/, "");
      if (entry.kind !== "file" || !ID.test(id)) continue;
      const record = await this.record(id).catch(() => null);
      const gone =
        record === null ||
        (record.session === null ? now - (record.created ?? 0) > UNCLAIMED_MS : !trashed.has(record.session) && !(await sessions.live(record.session)));
      if (!gone) {
        kept.add(record.sha256);
        continue;
      }
      await removeConfinedFile(this.dataRoot, metaPath(id));
      removed.records++;
    }
    for (const folder of [`${ROOT}/blobs`, `${ROOT}/model`]) {
      for (const entry of (await readConfinedDir(this.dataRoot, folder)) ?? []) {
        if (kept.has(entry.name.split(".")[0])) continue;
        const info = await lstat(join(this.dataRoot, folder, entry.name)).catch(() => null);
        if (!info || now - info.mtimeMs < BLOB_GRACE_MS) continue;
        if (await removeConfinedFile(this.dataRoot, `${folder}/${entry.name}`)) removed.bytes++;
      }
    }
    for (const entry of (await readConfinedDir(this.dataRoot, ATTACHMENTS_DIR)) ?? []) {
      if (await sessions.live(entry.name).catch(() => false)) continue;
      const info = await lstat(join(this.dataRoot, ATTACHMENTS_DIR, entry.name)).catch(() => null);
      if (!info || now - info.mtimeMs < BLOB_GRACE_MS) continue;
      await inConfinedFolder(this.dataRoot, ATTACHMENTS_DIR, {}, (dir) => dir.remove(entry.name));
      removed.folders++;
    }
    return removed;
  }
}

