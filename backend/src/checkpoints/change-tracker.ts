/**
 * What each tool call did to the user's files, whatever made the change (`sed -i`, a redirect, Python,
 * a sub-agent): the folders the sandbox can write are scanned before and after the call (tree-scan.ts,
 * stat only; after a whole scan, only the files whose kernel change time is newer are handed over,
 * and the folders whose entries changed are listed again), and the files whose status changed are
 * compared by content and mode. Every file's
 * content as of the last scan is kept in the blob store (content-addressed, once), so the state before
 * a call is there to restore even though nothing knew in advance which files the call would touch.
 *
 * The sandbox can try to defeat the record, so what it cannot know is said, never left out in silence:
 * - a writable folder with more files than its scan budget is scanned in part; changes in the rest
 *   are found from its folders' file events (each such folder is listed again); where the events
 *   cannot tell (too many folders to watch, a folder with more entries than can be listed), the call
 *   says "not tracked: …" for it;
 * - a name that is not UTF-8 is reported as not tracked, by its bytes, never as some other name;
 * - the store's cap counts what it puts on disk (a block per file at least, and the records), and is
 *   kept by pruning the oldest calls' records first; past it, a file's content is not kept, and a
 *   change to it says it cannot be put back.
 *
 * Calls that run at the same time (one step's calls, another session's) each list the changes made
 * while they ran: a change can appear under both.
 */
import type { ChangedFile, ChangesEvent } from "@mini-openclaw/protocol";
import { randomBytes } from "node:crypto";
import { appendFile, lstat, mkdir, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { isUnreadable, readConfinedFile } from "../paths/read-confined-file.js";
import { CHECKPOINTS_DIR } from "../config/data-root-layout.js";
import { BlobStore, diskCost, hashOf } from "./blob-store.js";
import { WRITABLE_DATA_DIRS } from "../sandbox/sandbox-profile.js";
import { listFolder, type ScannedFile, scanChangedSince, scanWritableTree, statPaths } from "./tree-scan.js";
import { TreeWatch } from "./tree-watch.js";

/** Files over this size are listed as changed but their earlier content is not kept. */
export const MAX_RESTORABLE_BYTES = 10 * 1024 * 1024;
/** Files a `changes` event lists at most; the record keeps every one (Rewind puts them all back). */
export const MAX_LISTED_PER_CALL = 500;

export interface IndexEntry {
  sig: string;
  mode: number;
  /** The content's hash; null when it could not be read (`reason` says why). */
  hash: string | null;
  /** Whether the content is in the blob store (so it can be put back); else `reason` says why not. */
  kept: boolean;
  reason?: string;
}

/** One file of a call's change, as stored (the hashes and modes let it be restored). */
export interface StoredChange extends ChangedFile {
  before: string | null;
  after: string | null;
  before_mode?: number;
}

export interface CallRecord {
  change: string;
  session_id: string;
  turn: number;
  call_id: string;
  tool: string;
  at: string;
  files: StoredChange[];
  /** What this call may have changed that the record cannot know, each with why. */
  untracked?: string[];
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
const rootOf = (path: string) => path.split("/")[0];
/**
 * A scan after the first looks again at files whose status changed this long before the last scan
 * began, or later: the file system stamps changes with a coarse clock, and a second covers it.
 */
const RESCAN_MARGIN_S = 1;
/** How far the file system's clock may be from ours (or ours may jump) before scans look at every file. */
const MAX_CLOCK_SKEW_MS = 250;
/**
 * The index as the last run left it (`.checkpoints/index.json`): at start, a file whose status is what
 * it was then, and whose content the store holds, is not read again (a restart in a workspace of
 * 20,000 files read and hashed them all before the first call could be recorded).
 */
const INDEX_FILE = "index.json";
const INDEX_FORMAT = 1;
const MAX_INDEX_FILE_BYTES = 256 * 1024 * 1024;
/** The index is written this long after the last scan (and at close): off every call's path. */
const SAVE_AFTER_MS = 5_000;

/** The files (and names that are not UTF-8) as a scan left them, and what it could not see. */
interface Snapshot {
  index: Map<string, IndexEntry>;
  odd: Map<string, { shown: string; sig: string }>;
  untracked: string[];
  /** Folders listed again from their file events (partial roots): their direct entries are known. */
  relisted: Set<string>;
}

export class ChangeTracker {
  readonly blobs: BlobStore;
  private index = new Map<string, IndexEntry>();
  private odd = new Map<string, { shown: string; sig: string }>();
  /** Writable folders the last scan saw only in part, and why. */
  private partial = new Map<string, string>();
  private ready: Promise<void> | null = null;
  private readonly root: string;
  private readonly watch: TreeWatch;
  /** When the last scan began: changes the watch saw after it make the next call scan first. */
  private lastScanAt = Number.NEGATIVE_INFINITY;
  /** The folders the last scan went through, and when it began by the wall clock (ms; null before one was whole). */
  private dirs: string[] = [];
  private lastScanWall: number | null = null;
  /** The wall clock minus the monotonic one at the last scan: a change means the wall clock jumped. */
  private clockOffset = 0;
  /** Whether the data root's file system stamps changes by a clock close to ours (probed once). */
  private sameClock = false;
  /** What the store holds on disk, as its cap counts it (blobs and records). */
  private used = 0;
  /** The last run's index, while the first scan runs (its entries stand for files unchanged since). */
  private earlier: Map<string, IndexEntry> | null = null;
  private saveTimer: NodeJS.Timeout | null = null;
  /** What the saved index takes on disk (counted in `used`, under the same cap). */
  private indexCost = 0;

  constructor(
    private readonly dataRoot: string,
    private readonly log: { warn(obj: object, msg: string): void },
    /** Past this total on disk, the oldest calls' records go first, with the contents only they kept. */
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {
    this.root = join(dataRoot, CHECKPOINTS_DIR);
    this.blobs = new BlobStore(join(this.root, "blobs"));
    this.watch = new TreeWatch(dataRoot);
  }

  private closed = false;

  /** Stops watching, and waits for a keeping of contents under way (it stops at the next file). */
  async close(): Promise<void> {
    this.closed = true;
    this.watch.close();
    await this.ready;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    await this.saveIndex();
  }

  /** Keeps every file's content once, in the background: the first recorded call waits for it. */
  start(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.root, { recursive: true, mode: 0o700 });
      const stored = await this.blobs.list();
      this.used = await this.countUse(stored);
      this.sameClock = await this.clockAgrees();
      this.earlier = await this.loadIndex(stored);
      await this.refresh(Number.NEGATIVE_INFINITY);
      this.earlier = null;
    })().catch((err) => this.log.warn({ err }, "the change store could not start; calls are not recorded"));
    return this.ready;
  }

  /** What the store holds on disk, counted from its files (`stored`: the blobs, when listed already). */
  private async countUse(stored?: Map<string, number>): Promise<number> {
    let total = 0;
    for (const size of (stored ?? (await this.blobs.list())).values()) total += diskCost(size);
    const saved = await lstat(join(this.root, INDEX_FILE)).catch(() => null);
    this.indexCost = saved?.isFile() ? diskCost(saved.size) : 0;
    total += this.indexCost;
    for (const id of await this.sessionIds()) total += diskCost((await readFile(this.logPath(id)).catch(() => Buffer.alloc(0))).length);
    return total;
  }

  /** The last run's index: its entries whose content the store still holds (null when there is none to trust). */
  private async loadIndex(stored: Map<string, number>): Promise<Map<string, IndexEntry> | null> {
    try {
      const path = join(this.root, INDEX_FILE);
      const info = await lstat(path);
      if (!info.isFile() || info.size > MAX_INDEX_FILE_BYTES) return null;
      const data = JSON.parse(await readFile(path, "utf8")) as { format?: unknown; entries?: unknown };
      if (data.format !== INDEX_FORMAT || !Array.isArray(data.entries)) return null;
      const out = new Map<string, IndexEntry>();
      for (const item of data.entries as unknown[]) {
        if (!Array.isArray(item) || typeof item[0] !== "string") continue;
        const entry = item[1] as Partial<IndexEntry> | null;
        // Only a kept content is taken as it was; anything else is looked at again (it is cheap, or there may be room now).
        if (!entry || entry.kept !== true || typeof entry.sig !== "string" || typeof entry.mode !== "number" || typeof entry.hash !== "string" || !stored.has(entry.hash)) continue;
        out.set(item[0], { sig: entry.sig, mode: entry.mode, hash: entry.hash, kept: true });
      }
      return out;
    } catch {
      return null;
    }
  }

  /** Writes the index (a new file put in place, so a crash leaves the old one or none). */
  private async saveIndex(): Promise<void> {
    if (this.index.size === 0) return;
    const path = join(this.root, INDEX_FILE);
    try {
      const text = JSON.stringify({ format: INDEX_FORMAT, entries: [...this.index] });
      const cost = diskCost(Buffer.byteLength(text));
      // Under the store's cap like everything it writes: no room, no index (the next start reads every file).
      if (this.used - this.indexCost + cost > this.maxBytes) {
        await rm(path, { force: true });
        this.used -= this.indexCost;
        this.indexCost = 0;
        return;
      }
      const tmp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
      await writeFile(tmp, text, { mode: 0o600 });
      await rename(tmp, path);
      this.used += cost - this.indexCost;
      this.indexCost = cost;
    } catch (err) {
      this.log.warn({ err }, "the change store's index could not be saved; the next start reads every file again");
    }
  }

  private saveSoon(): void {
    if (this.saveTimer || this.closed) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.saveIndex();
    }, SAVE_AFTER_MS);
    this.saveTimer.unref();
  }

  /** The content of a file as a scan found it, kept in the store when there is room (or why not). */
  private async capture(path: string, file: ScannedFile): Promise<IndexEntry> {
    const base = { sig: file.sig, mode: file.mode };
    if (file.type === "l") return { ...base, hash: null, kept: false, reason: "a symbolic link (its target is not kept)" };
    if (file.type !== "f") return { ...base, hash: null, kept: false, reason: "not a regular file" };
    if (file.size > MAX_RESTORABLE_BYTES) return { ...base, hash: null, kept: false, reason: `too large: ${file.size} bytes, over the ${MAX_RESTORABLE_BYTES / 1024 / 1024} MB kept per file` };
    let data: Uint8Array;
    try {
      data = (await readConfinedFile(this.dataRoot, path, { maxBytes: MAX_RESTORABLE_BYTES })).data;
    } catch (err) {
      if (isUnreadable(err)) return { ...base, hash: null, kept: false, reason: err.message };
      throw err;
    }
    const hash = hashOf(data);
    if (!this.blobs.has(hash)) {
      const cost = diskCost(data.length);
      // Room is made by letting the oldest calls' records go; what still does not fit is not kept.
      if (this.used + cost > this.maxBytes) await this.makeRoom(cost);
      if (this.used + cost > this.maxBytes) return { ...base, hash, kept: false, reason: `the change store is at its cap (CHECKPOINTS_MAX_MB, ${Math.round(this.maxBytes / 1024 / 1024)} MB)` };
      if (await this.blobs.put(data, hash)) this.used += cost;
    }
    return { ...base, hash, kept: true };
  }

  /** One pruning at a time, however many captures find the store full at once. */
  private pruning: Promise<void> = Promise.resolve();
  /** A pruning found no record left to let go: none is tried again until a record is written or forgotten. */
  private nothingToPrune = false;
  private makeRoom(cost: number): Promise<void> {
    if (this.nothingToPrune) return Promise.resolve();
    this.pruning = this.pruning
      .then(async () => {
        // Down to nine tenths of the cap, so the captures after this one find room without pruning again.
        if (this.used + cost > this.maxBytes && !this.nothingToPrune) await this.prune(this.maxBytes * 0.9 - cost);
        if (this.used + cost > this.maxBytes) this.nothingToPrune = true;
      })
      .catch((err) => this.log.warn({ err }, "the change store could not be pruned"));
    return this.pruning;
  }

  /** Keeps the contents of these scanned files (several read at once) into `index`. */
  private async captureAll(files: Array<[string, ScannedFile]>, index: Map<string, IndexEntry>): Promise<void> {
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < files.length && !this.closed; i = next++) {
        const [path, file] = files[i];
        // Unchanged since the last run (the same status), and its content in the store: not read again.
        const earlier = this.earlier?.get(path);
        index.set(path, earlier?.sig === file.sig ? earlier : await this.capture(path, file));
      }
    };
    await Promise.all(Array.from({ length: Math.min(CAPTURE_CONCURRENCY, files.length) }, worker));
  }

  /**
   * Whether the file system's change times can be trusted to say what changed since a scan: a file
   * written here now must carry a change time within MAX_CLOCK_SKEW_MS of our clock (a network file
   * system with its own clock, or one with coarse times, would not), and every writable folder must
   * be on that same file system.
   */
  private async clockAgrees(): Promise<boolean> {
    try {
      const probe = join(this.root, ".clock-probe");
      await writeFile(probe, "");
      const written = Date.now();
      const [info, ...roots] = await Promise.all([stat(probe), ...WRITABLE_DATA_DIRS.map((d) => stat(join(this.dataRoot, d)).catch(() => null))]);
      await rm(probe, { force: true });
      return Math.abs(info.ctimeMs - written) <= MAX_CLOCK_SKEW_MS && roots.every((r) => r === null || r.dev === info.dev);
    } catch {
      return false;
    }
  }

  /**
   * Brings the index to the tree as it is. After a whole scan that saw everything, only what changed
   * since is handed over (`refreshChanged`); else, or when that cannot say, every file is scanned.
   */
  private async refresh(since: number): Promise<Snapshot> {
    this.saveSoon();
    const clockOffset = Date.now() - performance.now();
    const steady = Math.abs(clockOffset - this.clockOffset) <= MAX_CLOCK_SKEW_MS;
    if (this.sameClock && steady && this.lastScanWall !== null && this.partial.size === 0 && this.odd.size === 0) {
      const snapshot = await this.refreshChanged(this.lastScanWall);
      if (snapshot) return snapshot;
    }
    return this.refreshWhole(since);
  }

  /** Marks a scan's start: the next one looks at what changed from a margin before it. */
  private began(whole: boolean): { at: number; wall: number } {
    const at = performance.now();
    const wall = Date.now();
    this.clockOffset = wall - at;
    if (whole) this.lastScanWall = null;
    return { at, wall };
  }

  /**
   * The files whose status changed since the last scan began (a margin before), every folder's list
   * (the watches follow them), and the folders whose entries changed listed again, so what left them
   * is known; a folder new since is read whole (a folder moved in keeps its files' old change times).
   * Null when it cannot say (a flood, a name that is not UTF-8, a folder too big to list): then the
   * whole scan runs.
   */
  private async refreshChanged(lastWall: number): Promise<Snapshot | null> {
    const { at, wall } = this.began(false);
    const scan = await scanChangedSince(this.dataRoot, lastWall / 1000 - RESCAN_MARGIN_S);
    if (!scan) return null;
    const known = new Set(this.dirs);
    const present = new Set(scan.dirs);
    const fresh = scan.dirs.filter((d) => !known.has(d));
    const freshSet = new Set(fresh);
    const gone = new Set(this.dirs.filter((d) => !present.has(d)));
    const relisted = scan.changedDirs.filter((d) => !freshSet.has(d));
    const listings = await Promise.all(relisted.map((dir) => listFolder(this.dataRoot, dir)));
    const topFresh = fresh.filter((d) => !freshSet.has(dirname(d)));
    const inner = topFresh.length > 0 ? await scanWritableTree(this.dataRoot, topFresh) : null;
    if (listings.some((l) => l.over || l.oddNames.size > 0) || (inner && (inner.partial.size > 0 || inner.oddNames.size > 0))) return null;
    const seen = new Map(scan.files);
    const listed = new Set<string>();
    for (const listing of listings) {
      for (const [path, file] of listing.files) {
        seen.set(path, file);
        listed.add(path);
      }
    }
    for (const [path, file] of inner?.files ?? []) seen.set(path, file);
    const changed = [...seen].filter(([path, file]) => this.index.get(path)?.sig !== file.sig);
    await this.captureAll(changed, this.index);
    const relistedSet = new Set(relisted);
    for (const path of this.index.keys()) {
      const dir = dirname(path);
      if (gone.has(dir) || (relistedSet.has(dir) && !listed.has(path))) this.index.delete(path);
    }
    this.dirs = scan.dirs;
    this.watch.follow(scan.dirs);
    this.lastScanAt = at;
    this.lastScanWall = wall;
    return { index: this.index, odd: this.odd, untracked: [], relisted: new Set() };
  }

  /**
   * Brings the index to the tree as it is: a scan of every writable folder, and for those scanned in
   * part, their folders whose entries changed after `since` listed again. Returns what it could not know.
   */
  private async refreshWhole(since: number): Promise<Snapshot> {
    const { at, wall } = this.began(true);
    const scan = await scanWritableTree(this.dataRoot);
    this.watch.follow(scan.dirs);
    this.lastScanAt = at;
    this.dirs = scan.dirs;
    this.partial = scan.partial;
    const untracked: string[] = [];
    const relisted = new Set<string>();
    const seen = new Map(scan.files);
    const odd = new Map(scan.oddNames);
    if (scan.partial.size > 0) {
      const changedDirs = this.watch.dirsChangedSince(since);
      for (const [root, why] of scan.partial) {
        if (changedDirs === null) {
          untracked.push(`${root}/: ${why}, and its folders cannot all be watched; changes past the files scanned are not known`);
          continue;
        }
        for (const dir of changedDirs.filter((d) => rootOf(d) === root)) {
          const listing = await listFolder(this.dataRoot, dir);
          if (listing.over) untracked.push(`${dir}/: it holds more entries than can be read (${why}); its changes are not known`);
          else relisted.add(dir);
          for (const [path, file] of listing.files) seen.set(path, file);
          for (const [key, name] of listing.oddNames) odd.set(key, name);
          // A folder new since the last look is read whole.
          const known = new Set(scan.dirs);
          const fresh = listing.dirs.filter((d) => !known.has(d));
          if (fresh.length) {
            const inner = await scanWritableTree(this.dataRoot, fresh);
            for (const [path, file] of inner.files) seen.set(path, file);
            for (const [key, name] of inner.oddNames) odd.set(key, name);
            for (const [dir2, why2] of inner.partial) untracked.push(`${dir2}/: ${why2}; changes past the files scanned are not known`);
            for (const d of [...fresh, ...inner.dirs]) relisted.add(d);
            this.watch.follow([...scan.dirs, ...inner.dirs]);
          }
        }
      }
    }
    const changed = [...seen].filter(([path, file]) => this.index.get(path)?.sig !== file.sig);
    await this.captureAll(changed, this.index);
    for (const path of [...this.index.keys()]) {
      if (seen.has(path)) continue;
      const root = rootOf(path);
      // A file no scan or listing saw is gone only where the look was whole: its root, or its folder listed again.
      if (!scan.partial.has(root) || relisted.has(dirname(path))) this.index.delete(path);
    }
    this.odd = odd;
    // Only a scan that saw every file can be the base of one that looks at the changed ones.
    if (scan.partial.size === 0 && !this.closed) this.lastScanWall = wall;
    // The live index: a caller reads it before anything else runs (a copy of 60,000 entries is not free).
    return { index: this.index, odd, untracked, relisted };
  }

  /**
   * Runs a call and records what it changed: the changes event to send after its result (null when it
   * changed nothing and nothing went unseen), stored under the session with the contents before and after.
   */
  async record<T>(meta: CallMeta, run: () => Promise<T>): Promise<{ result: T; changes: ChangesEvent | null }> {
    await this.start();
    let before: Snapshot;
    try {
      // What changed since the last scan (the user's own edits) is taken in first: it is not the call's.
      // Nothing did (the folders' watches are quiet since): the index is current as it is.
      const fresh = this.watch.changedSince(this.lastScanAt) ? await this.refresh(this.lastScanAt) : { index: this.index, odd: this.odd, untracked: [], relisted: new Set<string>() };
      // Kept as it is now: the index changes under the call.
      before = { ...fresh, index: new Map(fresh.index), odd: new Map(fresh.odd) };
    } catch (err) {
      this.log.warn({ err }, "files not scanned before a call; its changes are not recorded");
      return { result: await run(), changes: null };
    }
    const callStart = performance.now();
    const result = await run();
    try {
      const after = await this.refresh(callStart);
      const files: StoredChange[] = [];
      for (const [path, now] of after.index) {
        const was = before.index.get(path);
        if (was?.sig === now.sig) continue;
        // Touched but not changed (same content, same mode): not a change.
        if (was && was.hash !== null && was.hash === now.hash && was.mode === now.mode) continue;
        const kind = was ? "modified" : "created";
        const restorable = kind === "created" || was!.kept;
        const reason = restorable ? undefined : (was!.reason ?? "its earlier content was not kept");
        files.push({ path, kind, restorable, ...(reason ? { reason } : {}), before: was?.kept ? was.hash : null, after: now.hash, ...(was ? { before_mode: was.mode } : {}) });
      }
      for (const [path, was] of before.index) {
        if (after.index.has(path)) continue;
        files.push({ path, kind: "deleted", restorable: was.kept, ...(was.kept ? {} : { reason: was.reason ?? "its earlier content was not kept" }), before: was.kept ? was.hash : null, after: null, before_mode: was.mode });
      }
      const untracked = [...new Set(after.untracked)];
      for (const [key, name] of new Map([...before.odd, ...after.odd])) {
        if (before.odd.get(key)?.sig !== after.odd.get(key)?.sig) untracked.push(`${name.shown}: a name that is not UTF-8; its changes are not tracked (rename it to put it under undo)`);
      }
      untracked.sort();
      if (files.length === 0 && untracked.length === 0) return { result, changes: null };
      files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      const record: CallRecord = {
        change: `${meta.sessionId}~${randomBytes(6).toString("hex")}`,
        session_id: meta.sessionId,
        turn: meta.turn,
        call_id: meta.callId,
        tool: meta.tool,
        at: new Date().toISOString(),
        files,
        ...(untracked.length ? { untracked } : {}),
      };
      await this.append(record);
      if (this.used > this.maxBytes) await this.makeRoom(0);
      const listed = files.slice(0, MAX_LISTED_PER_CALL).map(({ before: _b, after: _a, before_mode: _m, ...shown }) => shown);
      return {
        result,
        changes: {
          type: "changes",
          call_id: meta.callId,
          change: record.change,
          files: listed,
          ...(files.length > listed.length ? { more: files.length - listed.length } : {}),
          ...(untracked.length ? { untracked } : {}),
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
    const line = `${JSON.stringify(record)}\n`;
    const path = this.logPath(record.session_id);
    const before = (await readFile(path).catch(() => Buffer.alloc(0))).length;
    await appendFile(path, line, { mode: 0o600 });
    this.used += diskCost(before + Buffer.byteLength(line)) - diskCost(before);
    this.nothingToPrune = false;
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

  /** What these files are now (exists, content hash and mode), each looked at where it is. */
  async currentHashes(paths: string[]): Promise<Map<string, { exists: boolean; hash: string | null; mode: number | null }>> {
    const found = await statPaths(this.dataRoot, paths);
    const out = new Map<string, { exists: boolean; hash: string | null; mode: number | null }>();
    for (const path of paths) {
      const file = found.get(path);
      if (!file) {
        out.set(path, { exists: false, hash: null, mode: null });
        continue;
      }
      let entry = this.index.get(path);
      if (entry?.sig !== file.sig) {
        entry = await this.capture(path, file);
        this.index.set(path, entry);
      }
      out.set(path, { exists: true, hash: entry.hash, mode: entry.mode });
    }
    return out;
  }

  /** A deleted session's records go, and the contents only they kept. */
  async forgetSession(sessionId: string): Promise<void> {
    await rm(this.logPath(sessionId), { force: true });
    this.nothingToPrune = false;
    await this.collect();
  }

  private async sessionIds(): Promise<string[]> {
    return (await readdir(join(this.root, "sessions")).catch(() => [] as string[])).filter((n) => n.endsWith(".jsonl")).map((n) => n.slice(0, -6));
  }

  /** Removes blobs neither the index nor any session's record names; counts what is left on disk. */
  async collect(): Promise<number> {
    await this.start();
    const live = new Set<string>();
    for (const entry of this.index.values()) if (entry.hash && entry.kept) live.add(entry.hash);
    for (const id of await this.sessionIds()) for (const call of await this.calls(id)) for (const f of call.files) for (const h of [f.before, f.after]) if (h) live.add(h);
    for (const hash of (await this.blobs.list()).keys()) if (!live.has(hash)) await this.blobs.remove(hash);
    this.used = await this.countUse();
    return this.used;
  }

  /**
   * Down to `target`: the oldest calls' records go (across sessions, oldest first), then the contents
   * nothing names any more; the files as they are now stay (the next call's before).
   */
  private async prune(target = this.maxBytes): Promise<void> {
    let left = await this.collect();
    if (left <= target) return;
    const all: CallRecord[] = [];
    for (const id of await this.sessionIds()) all.push(...(await this.calls(id)));
    all.sort((a, b) => a.at.localeCompare(b.at));
    const current = new Set([...this.index.values()].filter((e) => e.kept).map((e) => e.hash));
    const sizes = await this.blobs.list();
    const dropped = new Set<string>();
    const freed = new Set<string>();
    for (const call of all) {
      if (left <= target) break;
      dropped.add(call.change);
      left -= Buffer.byteLength(JSON.stringify(call)) + 1;
      for (const f of call.files) {
        for (const h of [f.before, f.after]) {
          if (h && !current.has(h) && !freed.has(h) && sizes.has(h)) {
            freed.add(h);
            left -= diskCost(sizes.get(h)!);
          }
        }
      }
    }
    for (const id of new Set(all.filter((c) => dropped.has(c.change)).map((c) => c.session_id))) {
      const kept = (await this.calls(id)).filter((c) => !dropped.has(c.change));
      if (kept.length === 0) await rm(this.logPath(id), { force: true });
      else await writeFile(this.logPath(id), kept.map((c) => `${JSON.stringify(c)}\n`).join(""), { mode: 0o600 });
    }
    this.log.warn({ calls: dropped.size, maxBytes: this.maxBytes }, "change store over its cap: the oldest calls' records were pruned");
    await this.collect();
  }

  /** The writable folders the last scan saw only in part (for the health report and the tests). */
  partialFolders(): Map<string, string> {
    return new Map(this.partial);
  }
}
