/**
 * What each tool call did to the user's files, whatever made the change (`sed -i`, a redirect, Python,
 * a sub-agent): the folders the sandbox can write are scanned before and after the call (one `find`
 * each, stat only), and the files whose status changed are compared by content. Every file's content
 * as of the last scan is kept in the blob store (content-addressed, once), so the state before a call
 * is there to restore even though nothing knew in advance which files the call would touch.
 *
 * Calls that run at the same time (one step's calls, another session's) each list the changes made
 * while they ran: a change can appear under both.
 */
import type { ChangedFile, ChangesEvent } from "@mini-openclaw/protocol";
import { randomBytes } from "node:crypto";
import { appendFile, mkdir, readFile, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { isUnreadable, readConfinedFile } from "../paths/read-confined-file.js";
import { BlobStore } from "./blob-store.js";
import { type ScannedFile, scanWritableTree, type TreeScan } from "./tree-scan.js";
import { CHECKPOINTS_DIR } from "../workspace/workspace-files.js";

/** Files over this size are listed as changed but their earlier content is not kept. */
export const MAX_RESTORABLE_BYTES = 10 * 1024 * 1024;

export interface IndexEntry {
  sig: string;
  /** The content's hash in the blob store; null when it was not kept (`reason` says why). */
  hash: string | null;
  reason?: string;
}

/** One file of a call's change, as stored (the hashes let it be restored). */
export interface StoredChange extends ChangedFile {
  before: string | null;
  after: string | null;
}

export interface CallRecord {
  change: string;
  session_id: string;
  turn: number;
  call_id: string;
  tool: string;
  at: string;
  files: StoredChange[];
  incomplete?: string;
}

export interface CallMeta {
  sessionId: string;
  turn: number;
  callId: string;
  tool: string;
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export class ChangeTracker {
  readonly blobs: BlobStore;
  private index = new Map<string, IndexEntry>();
  private ready: Promise<void> | null = null;
  private readonly root: string;

  constructor(
    private readonly dataRoot: string,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {
    this.root = join(dataRoot, CHECKPOINTS_DIR);
    this.blobs = new BlobStore(join(this.root, "blobs"));
  }

  /** Keeps every file's content once, in the background: the first recorded call waits for it. */
  start(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.root, { recursive: true, mode: 0o700 });
      await this.sync(await scanWritableTree(this.dataRoot));
    })().catch((err) => this.log.warn({ err }, "the change store could not start; calls are not recorded"));
    return this.ready;
  }

  /** The content of a file as a scan found it, kept in the store (or why not). */
  private async capture(path: string, file: ScannedFile): Promise<IndexEntry> {
    if (file.type === "l") return { sig: file.sig, hash: null, reason: "a symbolic link (its target is not kept)" };
    if (file.type !== "f") return { sig: file.sig, hash: null, reason: "not a regular file" };
    if (file.size > MAX_RESTORABLE_BYTES) return { sig: file.sig, hash: null, reason: `too large: ${file.size} bytes, over the ${MAX_RESTORABLE_BYTES / 1024 / 1024} MB kept per file` };
    try {
      const { data } = await readConfinedFile(this.dataRoot, path, { maxBytes: MAX_RESTORABLE_BYTES });
      return { sig: file.sig, hash: await this.blobs.put(data) };
    } catch (err) {
      if (isUnreadable(err)) return { sig: file.sig, hash: null, reason: err.message };
      throw err;
    }
  }

  /** Brings the index to a scan: changed files' contents are kept; returns the entries that changed. */
  private async sync(scan: TreeScan): Promise<void> {
    for (const [path, file] of scan.files) {
      const known = this.index.get(path);
      if (known?.sig === file.sig) continue;
      this.index.set(path, await this.capture(path, file));
    }
    if (!scan.incomplete) for (const path of this.index.keys()) if (!scan.files.has(path)) this.index.delete(path);
  }

  /**
   * Runs a call and records what it changed: the changes event to send after its result (null when it
   * changed nothing), stored under the session with the contents before and after.
   */
  async record<T>(meta: CallMeta, run: () => Promise<T>): Promise<{ result: T; changes: ChangesEvent | null }> {
    await this.start();
    let before: Map<string, IndexEntry>;
    try {
      // What changed since the last scan (the user's own edits) is taken in first: it is not the call's.
      await this.sync(await scanWritableTree(this.dataRoot));
      before = new Map(this.index);
    } catch (err) {
      this.log.warn({ err }, "files not scanned before a call; its changes are not recorded");
      return { result: await run(), changes: null };
    }
    const result = await run();
    try {
      const after = await scanWritableTree(this.dataRoot);
      const files: StoredChange[] = [];
      for (const [path, file] of after.files) {
        const was = before.get(path);
        if (was?.sig === file.sig) continue;
        const now = await this.capture(path, file);
        this.index.set(path, now);
        // Touched but not changed (same content): not a change.
        if (was && was.hash !== null && was.hash === now.hash) continue;
        const kind = was ? "modified" : "created";
        const restorable = kind === "created" || was!.hash !== null;
        files.push({ path, kind, restorable, ...(restorable ? {} : { reason: was!.reason }), before: was?.hash ?? null, after: now.hash });
      }
      if (!after.incomplete) {
        for (const [path, was] of before) {
          if (after.files.has(path)) continue;
          this.index.delete(path);
          files.push({ path, kind: "deleted", restorable: was.hash !== null, ...(was.hash === null ? { reason: was.reason } : {}), before: was.hash, after: null });
        }
      }
      if (files.length === 0 && !after.incomplete) return { result, changes: null };
      files.sort((a, b) => a.path.localeCompare(b.path));
      const record: CallRecord = {
        change: `${meta.sessionId}~${randomBytes(6).toString("hex")}`,
        session_id: meta.sessionId,
        turn: meta.turn,
        call_id: meta.callId,
        tool: meta.tool,
        at: new Date().toISOString(),
        files,
        ...(after.incomplete ? { incomplete: after.incomplete } : {}),
      };
      await this.append(record);
      return {
        result,
        changes: {
          type: "changes",
          call_id: meta.callId,
          change: record.change,
          files: files.map(({ before: _b, after: _a, ...shown }) => shown),
          ...(after.incomplete ? { incomplete: after.incomplete } : {}),
        },
      };
    } catch (err) {
      this.log.warn({ err }, "files not scanned after a call; its changes are not recorded");
      return { result, changes: null };
    }
  }

  private logPath(sessionId: string): string {
    if (!SAFE_ID.test(sessionId)) throw new Error(`not a session id: ${sessionId}`);
    return join(this.root, "sessions", `${sessionId}.jsonl`);
  }

  private async append(record: CallRecord): Promise<void> {
    await mkdir(join(this.root, "sessions"), { recursive: true, mode: 0o700 });
    await appendFile(this.logPath(record.session_id), `${JSON.stringify(record)}\n`, { mode: 0o600 });
  }

  /** A session's recorded calls, oldest first. */
  async calls(sessionId: string): Promise<CallRecord[]> {
    const text = await readFile(this.logPath(sessionId), "utf8").catch(() => "");
    const out: CallRecord[] = [];
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as CallRecord);
      } catch {
        // A torn last line (a crash mid-write) is skipped.
      }
    }
    return out;
  }

  /** The call a change id names, or null. */
  async find(change: string): Promise<CallRecord | null> {
    const sessionId = change.split("~")[0];
    if (!SAFE_ID.test(sessionId)) return null;
    return (await this.calls(sessionId)).find((c) => c.change === change) ?? null;
  }

  /** What the index says a file is now (after the last scan), for conflict checks. */
  async currentHash(path: string): Promise<{ exists: boolean; hash: string | null }> {
    const scan = await scanWritableTree(this.dataRoot, [path.split("/")[0]]);
    const file = scan.files.get(path);
    if (!file) return { exists: false, hash: null };
    const known = this.index.get(path);
    if (known?.sig === file.sig) return { exists: true, hash: known.hash };
    const entry = await this.capture(path, file);
    this.index.set(path, entry);
    return { exists: true, hash: entry.hash };
  }

  /** A deleted session's records go, and the contents only they kept. */
  async forgetSession(sessionId: string): Promise<void> {
    await rm(this.logPath(sessionId), { force: true });
    await this.collect();
  }

  /** Removes blobs neither the index nor any session's record names. */
  async collect(): Promise<void> {
    await this.start();
    const live = new Set<string>();
    for (const entry of this.index.values()) if (entry.hash) live.add(entry.hash);
    for (const name of await readdir(join(this.root, "sessions")).catch(() => [] as string[])) {
      if (!name.endsWith(".jsonl")) continue;
      for (const call of await this.calls(name.slice(0, -6))) for (const f of call.files) for (const h of [f.before, f.after]) if (h) live.add(h);
    }
    for (const hash of (await this.blobs.list()).keys()) if (!live.has(hash)) await this.blobs.remove(hash);
  }
}
