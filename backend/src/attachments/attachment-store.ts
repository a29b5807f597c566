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
import { nameProblem, shownName } from "../paths/name-problem.js";
import { modelImage } from "./model-image.js";

const ROOT = `${STORAGE_DIR}/attachments`;
const ID = /^att_[0-9a-f]{24}$/;
const META_BYTES = 64 * 1024;
const READ_MS = 10_000;
/** How long an upload no message names is kept (a message being written, a queued one). */
export const UNCLAIMED_MS = 24 * 60 * 60 * 1000;
/** Uploads no message has named yet, at most: a page uploading in a loop fills no disk. */
export const MAX_UNCLAIMED = 200;
export const MAX_UNCLAIMED_BYTES = 512 * 1024 * 1024;
/** Bytes younger than this are never swept: their record may be being written. */
const BLOB_GRACE_MS = 60 * 60 * 1000;

/** Which sessions exist, for the sweep: a live one keeps its readable copies, a trashed one its records and bytes. */
export interface SessionsAlive {
  live(id: string): Promise<boolean>;
  trashed(): Promise<Set<string>>;
}

/** An attachment and the session it belongs to (null until a message names it). */
interface AttachmentRecord extends Attachment {
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

/**
 * Bytes of an attachment's name: its readable copy is written through a temporary name beside it and
 * may get a number (" (2)"), and both must stay within a file system's 255 bytes.
 */
export const ATTACHMENT_NAME_BYTES = 180;

/** What the user called the file (its last path part), or a 400 saying why it cannot be a file's name. */
function uploadName(raw: string): string {
  const name = (raw.split(/[\\/]/).pop() ?? "").trim();
  if (name === "") return "attachment";
  if (name === "." || name === "..") throw new UserError("invalid_request", `"${name}" is not a file name; rename the file and upload it again.`);
  const problem = nameProblem(name);
  if (problem) throw new UserError("invalid_request", `The file name ${shownName(name)} ${problem}; rename the file and upload it again.`);
  const bytes = Buffer.byteLength(name, "utf8");
  if (bytes > ATTACHMENT_NAME_BYTES) throw new UserError("invalid_request", `The file name is ${bytes} bytes long (UTF-8); an attachment's name may have at most ${ATTACHMENT_NAME_BYTES}. Rename the file and upload it again.`);
  return name;
}

/** What the API and the session file know of a record. */
const publicOf = ({ session: _s, created: _c, model_type: _m, ext: _e, ...attachment }: AttachmentRecord): Attachment => attachment;

export class AttachmentStore {
  /** Uploads no message has named yet, by id (a pending upload by a token of its own): their bytes and when they came. */
  private readonly unclaimed = new Map<string, { bytes: number; created: number }>();

  constructor(
    private readonly dataRoot: string,
    private readonly extract: ExtractDocument,
  ) {}

  private unclaimedBytes(): number {
    let total = 0;
    for (const upload of this.unclaimed.values()) total += upload.bytes;
    return total;
  }

  /** Holds a place for an upload among the unclaimed ones, or a 429 when they are at their bound (old ones swept first). */
  private reserve(bytes: number, now = Date.now()): string {
    for (const [id, upload] of this.unclaimed) if (now - upload.created > UNCLAIMED_MS && !id.startsWith("pending:")) this.unclaimed.delete(id);
    if (this.unclaimed.size >= MAX_UNCLAIMED || this.unclaimedBytes() + bytes > MAX_UNCLAIMED_BYTES) {
      throw new UserError(
        "limit_reached",
        `There are ${this.unclaimed.size} uploads (${Math.round(this.unclaimedBytes() / 1024 / 1024)} MB) that no message has sent yet, the most kept at once (${MAX_UNCLAIMED}, ${MAX_UNCLAIMED_BYTES / 1024 / 1024} MB). Send or discard them first; unsent uploads are deleted after ${UNCLAIMED_MS / 3_600_000} hours.`,
      );
    }
    const token = `pending:${randomBytes(8).toString("hex")}`;
    this.unclaimed.set(token, { bytes, created: now });
    return token;
  }

  /** Stores an upload; a 400/413/415/422 names the file and what is wrong with it, a 429 says too many are unsent. */
  async add(rawName: string, bytes: Uint8Array): Promise<Attachment> {
    const name = uploadName(rawName);
    if (bytes.length > MAX_ATTACHMENT_BYTES) throw new UserError("too_large", `${name} is ${bytes.length} bytes, over the ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB limit for one attachment.`);
    const token = this.reserve(bytes.length);
    try {
      const attachment = await this.store(name, bytes);
      this.unclaimed.set(attachment.id, this.unclaimed.get(token)!);
      return attachment;
    } finally {
      this.unclaimed.delete(token);
    }
  }

  private async store(name: string, bytes: Uint8Array): Promise<Attachment> {
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
      if (found.kind === "document" && text.trim() === "") throw new UserError("unprocessable", `${name} holds no text that can be read (a scanned document?).`);
      await writeConfinedAtomic(this.dataRoot, modelPath(sha256), text);
      modelType = "text/plain";
    }
    const attachment: Attachment = { id: `att_${randomBytes(12).toString("hex")}`, name, type: found.type, size: bytes.length, kind: found.kind, sha256 };
    const record: AttachmentRecord = { ...attachment, session: null, created: Date.now(), model_type: modelType, ext: found.ext };
    await writeConfinedAtomic(this.dataRoot, metaPath(attachment.id), JSON.stringify(record));
    return attachment;
  }

  private async record(id: string): Promise<AttachmentRecord> {
    if (!ID.test(id)) throw new UserError("not_found", `No such attachment: ${id.slice(0, 100)}`);
    try {
      const { data } = await readConfinedFile(this.dataRoot, metaPath(id), { maxBytes: META_BYTES, timeoutMs: READ_MS });
      return JSON.parse(data.toString("utf8")) as AttachmentRecord;
    } catch (err) {
      if (isUnreadable(err) || err instanceof SyntaxError) throw new UserError("not_found", `No such attachment: ${id}`);
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
    for (const record of records) if (record.session !== null && record.session !== sessionId) throw new UserError("not_found", `No such attachment in this session: ${record.id}`);
    const claimed: AttachmentRecord[] = [];
    for (const record of records) {
      if (record.session !== null) {
        claimed.push(record);
        continue;
      }
      const path = await this.readableCopy(record, sessionId);
      const owned = { ...record, session: sessionId, path };
      await writeConfinedAtomic(this.dataRoot, metaPath(record.id), JSON.stringify(owned));
      this.unclaimed.delete(record.id);
      claimed.push(owned);
    }
    return claimed.map(publicOf);
  }

  /** The file under its own name in `attachments/<session>/` (a name taken by other bytes gets a number). */
  private async readableCopy(record: AttachmentRecord, sessionId: string): Promise<string> {
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
    throw new UserError("conflict", `Too many attachments named ${record.name} in this session.`);
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
    if (record.kind === "image") throw new UserError("invalid_request", `${record.name} is an image; it has no text.`);
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

  /**
   * A session's attachments with their bytes, for an export. An image goes as the model got it (scaled,
   * encoded again: no EXIF, no GPS position) unless `originalImages` asks for the bytes as uploaded.
   */
  async exported(attachments: Attachment[], { originalImages = false } = {}): Promise<ExportedAttachment[]> {
    const out: ExportedAttachment[] = [];
    for (const attachment of attachments) {
      const record = await this.record(attachment.id);
      if (record.kind === "image" && !originalImages) {
        const { data } = await readConfinedFile(this.dataRoot, modelPath(record.sha256), { maxBytes: MAX_ATTACHMENT_BYTES * 2, timeoutMs: READ_MS });
        const ext = record.model_type === "image/png" ? ".png" : ".jpg";
        const dot = attachment.name.lastIndexOf(".");
        const name = `${dot > 0 ? attachment.name.slice(0, dot) : attachment.name}${ext}`;
        out.push({ ...attachment, name, type: record.model_type, size: data.length, sha256: createHash("sha256").update(data).digest("hex"), data: data.toString("base64") });
        continue;
      }
      const { data } = await readConfinedFile(this.dataRoot, blobPath(record.sha256, record.ext), { maxBytes: MAX_ATTACHMENT_BYTES, timeoutMs: READ_MS });
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
   * copies of sessions that are not live. Run at start and then every SWEEP_EVERY_MS, off the request path.
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
        if (record.session === null) this.unclaimed.set(id, { bytes: record.size, created: record.created ?? now });
        continue;
      }
      this.unclaimed.delete(id);
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

