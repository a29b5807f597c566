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
import { appendFile, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isUnreadable, readConfinedFile } from "../paths/read-confined-file.js";
import { BlobStore } from "./blob-store.js";
import { type ScannedFile, scanWritableTree, type TreeScan } from "./tree-scan.js";
import { TreeWatch } from "./tree-watch.js";
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
/** Files read and kept at once when many changed (the first scan keeps every file). */
const CAPTURE_CONCURRENCY = 16;

export class ChangeTracker {
  readonly blobs: BlobStore;
  private index = new Map<string, IndexEntry>();
  private ready: Promise<void> | null = null;
  private readonly root: string;
  private readonly watch: TreeWatch;
  /** When the last scan began: changes the watch saw after it make the next call scan first. */
  private lastScanAt = Number.NEGATIVE_INFINITY;

  /** The store's size when last counted, and how much had been added to it then. */
  private counted = { bytes: 0, added: 0 };

  constructor(
    private readonly dataRoot: string,
    private readonly log: { warn(obj: object, msg: string): void },
    /** Past this total, the oldest calls' records go first, with the contents only they kept. */
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {
    this.root = join(dataRoot, CHECKPOINTS_DIR);
    this.blobs = new BlobStore(join(this.root, "blobs"));
    this.watch = new TreeWatch(dataRoot);
  }

  /** Scans the writable folders and watches the folders it found from then on. */
  private async scan(): Promise<TreeScan> {
    const at = performance.now();
    const scan = await scanWritableTree(this.dataRoot);
    this.watch.follow(scan.dirs);
    this.lastScanAt = at;
    return scan;
  }

  private closed = false;

  /** Stops watching, and waits for a keeping of contents under way (it stops at the next file). */
  async close(): Promise<void> {
    this.closed = true;
    this.watch.close();
    await this.ready;
  }

  /** Keeps every file's content once, in the background: the first recorded call waits for it. */
  start(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.root, { recursive: true, mode: 0o700 });
      await this.sync(await this.scan());
      this.counted = { bytes: [...(await this.blobs.list()).values()].reduce((a, b) => a + b, 0), added: this.blobs.added };
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

  /** Brings the index to a scan: the changed files' contents are kept (several read at once). */
  private async sync(scan: TreeScan): Promise<void> {
    const changed = [...scan.files].filter(([path, file]) => this.index.get(path)?.sig !== file.sig);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < changed.length && !this.closed; i = next++) {
        const [path, file] = changed[i];
        this.index.set(path, await this.capture(path, file));
      }
    };
    await Promise.all(Array.from({ length: Math.min(CAPTURE_CONCURRENCY, changed.length) }, worker));
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
      // Nothing did (the folders' watches are quiet since): the index is current as it is.
      if (this.watch.changedSince(this.lastScanAt)) await this.sync(await this.scan());
      before = new Map(this.index);
    } catch (err) {
      this.log.warn({ err }, "files not scanned before a call; its changes are not recorded");
      return { result: await run(), changes: null };
    }
    const result = await run();
    try {
      const after = await this.scan();
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
      if (this.counted.bytes + this.blobs.added - this.counted.added > this.maxBytes) await this.prune();
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

  /** What these files are now (exists, content hash): one scan of the folders they are in, whatever their number. */
  async currentHashes(paths: string[]): Promise<Map<string, { exists: boolean; hash: string | null }>> {
    const roots = [...new Set(paths.map((p) => p.split("/")[0]))];
    const scan = await scanWritableTree(this.dataRoot, roots);
    const out = new Map<string, { exists: boolean; hash: string | null }>();
    for (const path of paths) {
      const file = scan.files.get(path);
      if (!file) {
        out.set(path, { exists: false, hash: null });
        continue;
      }
      let entry = this.index.get(path);
      if (entry?.sig !== file.sig) {
        entry = await this.capture(path, file);
        this.index.set(path, entry);
      }
      out.set(path, { exists: true, hash: entry.hash });
    }
    return out;
  }

  /** A deleted session's records go, and the contents only they kept. */
  async forgetSession(sessionId: string): Promise<void> {
    await rm(this.logPath(sessionId), { force: true });
    await this.collect();
  }

  private async sessionIds(): Promise<string[]> {
    return (await readdir(join(this.root, "sessions")).catch(() => [] as string[])).filter((n) => n.endsWith(".jsonl")).map((n) => n.slice(0, -6));
  }

  /** Removes blobs neither the index nor any session's record names; returns the bytes left. */
  async collect(): Promise<number> {
    await this.start();
    const live = new Set<string>();
    for (const entry of this.index.values()) if (entry.hash) live.add(entry.hash);
    for (const id of await this.sessionIds()) for (const call of await this.calls(id)) for (const f of call.files) for (const h of [f.before, f.after]) if (h) live.add(h);
    let left = 0;
    for (const [hash, size] of await this.blobs.list()) {
      if (live.has(hash)) left += size;
      else await this.blobs.remove(hash);
    }
    this.counted = { bytes: left, added: this.blobs.added };
    return left;
  }

  /**
   * Over the total cap: the oldest calls' records go (across sessions, oldest first), then the
   * contents nothing names any more; the files as they are now always stay (the next call's before).
   */
  private async prune(): Promise<void> {
    let left = await this.collect();
    if (left <= this.maxBytes) return;
    const all: CallRecord[] = [];
    for (const id of await this.sessionIds()) all.push(...(await this.calls(id)));
    all.sort((a, b) => a.at.localeCompare(b.at));
    const current = new Set([...this.index.values()].map((e) => e.hash).filter((h): h is string => h !== null));
    const sizes = await this.blobs.list();
    const dropped = new Set<string>();
    const freed = new Set<string>();
    for (const call of all) {
      if (left <= this.maxBytes) break;
      dropped.add(call.change);
      for (const f of call.files) for (const h of [f.before, f.after]) if (h && !current.has(h) && !freed.has(h)) {
        freed.add(h);
        left -= sizes.get(h) ?? 0;
      }
    }
    for (const id of new Set(all.filter((c) => dropped.has(c.change)).map((c) => c.session_id))) {
      const kept = (await this.calls(id)).filter((c) => !dropped.has(c.change));
      await writeFile(this.logPath(id), kept.map((c) => `${JSON.stringify(c)}\n`).join(""), { mode: 0o600 });
    }
    this.log.warn({ calls: dropped.size, maxBytes: this.maxBytes }, "change store over its cap: the oldest calls' records were pruned");
    await this.collect();
  }
}
