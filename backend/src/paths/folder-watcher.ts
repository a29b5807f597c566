/**
 * Tells its owner when something may have changed in a set of folders of the data root, from the
 * kernel's events (fs.watch, inotify on Linux): one watch per folder, never per file, so a flood of
 * 100,000 new files costs one cheap callback each and no stat. An event only says "look again";
 * the owner's confined walk decides what changed and then hands back the folders it entered
 * (`track`), so a new sub-folder is watched after the walk that found it. It also paces the
 * owner's looks: one at a time, at most one start per 500 ms, again until nothing is left to see.
 *
 * Measured against chokidar (issue 18): chokidar stats every new entry on the server's thread and
 * lost its watch when the data root was replaced. Here, a replaced folder is found by its inode
 * (at each `track`, and once a second for the data root itself), and when the kernel refuses more
 * watches (too many folders, no inotify) the owner is told to look every few seconds instead, and
 * why.
 */
import { type FSWatcher, lstatSync, type Stats, watch } from "node:fs";
import { lstat } from "node:fs/promises";
import { basename, join } from "node:path";

/** Folders watched at most; past this the owner polls (each watch is kernel memory). */
export const MAX_WATCHED_FOLDERS = 4096;
const DEBOUNCE_MS = 150;
const GAP_MS = 500;
const ROOT_CHECK_MS = 1000;

export interface FolderWatcherOptions {
  /**
   * The owner's look, called when a watched folder changed or was replaced (debounced), or every
   * `pollMs` in polling mode. Never called while its previous call runs, and started at most every
   * `gapMs`, so a tool churning files costs no more than polling would. Called again when changes
   * came during a call, or when it resolves to true (it found changes: look until a look finds none).
   */
  onChange: () => Promise<boolean | void> | boolean | void;
  /** The entries of the data root itself whose changes count (the root holds much else). */
  rootNames: string[];
  pollMs: number;
  debounceMs?: number;
  gapMs?: number;
  maxFolders?: number;
}

export interface FolderWatchState {
  mode: "events" | "polling";
  folders: number;
  /** Why the watcher fell back to polling. */
  reason: string | null;
}

export class FolderWatcher {
  /** By folder; `stale` once the kernel said the folder itself went (its inode number may come back with a new folder). */
  private readonly watches = new Map<string, { handle: FSWatcher; ino: number; stale: boolean }>();
  private readonly rootNames: Set<string>;
  /** The next look, scheduled. */
  private timer: NodeJS.Timeout | null = null;
  /** A change seen that no look has started after yet. */
  private owed = false;
  private running = false;
  private lastStart = 0;
  private readonly rootCheck: NodeJS.Timeout;
  private poller: NodeJS.Timeout | null = null;
  private rootIno: number | null = null;
  private rootChecked = false;
  private tracking: Promise<void> = Promise.resolve();
  private reason: string | null = null;
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly options: FolderWatcherOptions,
  ) {
    this.rootNames = new Set(options.rootNames);
    this.rootCheck = setInterval(() => void this.checkRoot(), ROOT_CHECK_MS);
    this.rootCheck.unref();
    // The data root is watched when the constructor returns (one lstat): an owner that reads after
    // making its watcher misses nothing, and a walk's `track` never races the first root check.
    let info: Stats | undefined;
    try {
      info = lstatSync(root, { throwIfNoEntry: false });
    } catch {
      info = undefined; // unreadable: the next check sees it
    }
    this.applyRoot(info);
  }

  get state(): FolderWatchState {
    return { mode: this.poller ? "polling" : "events", folders: this.watches.size, reason: this.reason };
  }

  /** True while a change was seen and no look has started since. */
  get pending(): boolean {
    return this.owed;
  }

  /** Asks for a look now (the owner's first), as soon as the pacing allows. */
  request(): void {
    this.owed = true;
    this.schedule(0);
  }

  /**
   * Watches exactly these folders (data-root-relative, as a confined walk entered them), plus the
   * data root. New or replaced ones are watched now and the owner is asked to look once more: a
   * file written between its walk and the new watch would otherwise go unseen.
   */
  track(folders: string[]): Promise<void> {
    // One at a time: two overlapping calls would both watch a new folder and leak one watch.
    this.tracking = this.tracking.then(() => this.trackNow(folders)).catch(() => {});
    return this.tracking;
  }

  private async trackNow(folders: string[]): Promise<void> {
    if (this.closed || this.poller) return;
    if (folders.length + 1 > (this.options.maxFolders ?? MAX_WATCHED_FOLDERS)) {
      return this.fallBack(`${folders.length} folders, more than the ${this.options.maxFolders ?? MAX_WATCHED_FOLDERS} watched at most`);
    }
    const wanted = new Set(folders);
    for (const [folder, { handle }] of this.watches) {
      if (folder !== "" && !wanted.has(folder)) {
        handle.close();
        this.watches.delete(folder);
      }
    }
    let added = false;
    for (const folder of wanted) {
      const info = await lstat(join(this.root, folder)).catch(() => null);
      if (this.closed || this.poller) return;
      const known = this.watches.get(folder);
      if (!info?.isDirectory()) {
        known?.handle.close();
        this.watches.delete(folder);
        continue;
      }
      if (known && !known.stale && known.ino === info.ino) continue;
      known?.handle.close();
      if (!this.watchFolder(folder, info.ino)) return;
      added = true;
    }
    if (added) this.changed();
  }

  private watchFolder(folder: string, ino: number): boolean {
    const path = join(this.root, folder);
    const self = basename(path);
    try {
      const handle = watch(path, { persistent: false }, (_event, name) => {
        // The folder itself deleted or moved: inotify names it by its own name.
        if (name === self) {
          const entry = this.watches.get(folder);
          if (entry?.handle === handle) entry.stale = true;
        } else if (folder === "" && (typeof name !== "string" || !this.rootNames.has(name))) return;
        this.changed();
      });
      // A watch the kernel ends (the folder deleted, unmounted) is dropped; the next walk decides.
      handle.on("error", () => {
        handle.close();
        if (this.watches.get(folder)?.handle === handle) this.watches.delete(folder);
        this.changed();
      });
      this.watches.set(folder, { handle, ino, stale: false });
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return true; // gone since the walk: the next walk sees it
      this.fallBack(`the system refused to watch another folder (${code ?? (err as Error).message})`);
      return false;
    }
  }

  /** The data root replaced (deleted and made again) or appearing: everything is watched afresh. */
  private async checkRoot(): Promise<void> {
    this.applyRoot(await lstat(this.root).catch(() => undefined));
  }

  private applyRoot(info: Stats | undefined): void {
    if (this.closed || this.poller) return;
    const ino = info?.isDirectory() ? info.ino : null;
    if (this.rootChecked && ino === this.rootIno && !this.watches.get("")?.stale) return;
    const first = !this.rootChecked;
    this.rootChecked = true;
    this.rootIno = ino;
    for (const { handle } of this.watches.values()) handle.close();
    this.watches.clear();
    if (ino !== null) this.watchFolder("", ino);
    if (!first) this.changed();
  }

  private changed(): void {
    this.owed = true;
    this.schedule(this.options.debounceMs ?? DEBOUNCE_MS);
  }

  private schedule(delay: number): void {
    if (this.closed || this.running || this.timer) return;
    const wait = Math.max(delay, this.lastStart + (this.options.gapMs ?? GAP_MS) - Date.now());
    this.timer = setTimeout(() => void this.look(), wait);
    this.timer.unref();
  }

  private async look(): Promise<void> {
    this.timer = null;
    if (this.closed) return;
    this.owed = false;
    this.running = true;
    this.lastStart = Date.now();
    let again = false;
    try {
      again = (await this.options.onChange()) === true;
    } catch {
      // The owner's look failed (it says so itself); the next change looks again.
    } finally {
      this.running = false;
    }
    if (again) this.owed = true;
    if (this.owed) this.schedule(0);
  }

  private fallBack(reason: string): void {
    this.reason = reason;
    for (const { handle } of this.watches.values()) handle.close();
    this.watches.clear();
    this.poller = setInterval(() => this.request(), this.options.pollMs);
    this.poller.unref();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.rootCheck);
    if (this.poller) clearInterval(this.poller);
    if (this.timer) clearTimeout(this.timer);
    for (const { handle } of this.watches.values()) handle.close();
    this.watches.clear();
  }
}
