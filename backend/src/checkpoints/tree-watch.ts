/**
 * Says whether anything in the writable folders may have changed since a moment: one kernel watch
 * (inotify) per folder, each event stamped when it arrives. A call's tracker skips its scan before
 * the call when nothing happened since its last scan (the scan after the previous call), which halves
 * what recording costs. Where the kernel cannot watch (too many folders, no inotify), or a watch
 * fails, every moment counts as changed: then it scans every time, as without it.
 */
import { type FSWatcher, watch } from "node:fs";
import { join } from "node:path";

/** Folders watched at most (each watch is kernel memory); past this, every call scans first. */
export const MAX_WATCHED = 4096;

export class TreeWatch {
  private readonly watches = new Map<string, FSWatcher>();
  private lastEvent = Number.POSITIVE_INFINITY;
  /** When each watched folder last had an event (its own entries changed). */
  private readonly lastByDir = new Map<string, number>();
  private reliable = false;
  private closed = false;

  constructor(private readonly dataRoot: string) {}

  /** Whether something may have changed after `since` (a `performance.now()` time). */
  changedSince(since: number): boolean {
    return !this.reliable || this.lastEvent >= since;
  }

  /** The folders whose entries changed after `since`; null when the watch cannot say (not watching). */
  dirsChangedSince(since: number): string[] | null {
    if (!this.reliable) return null;
    return [...this.lastByDir].filter(([, at]) => at >= since).map(([dir]) => dir);
  }

  /**
   * Watches exactly these folders (the last scan's), each from now on. A folder watched for the first
   * time counts as a change: the scan read it with no watch on it, so a write between its read and
   * now went unseen, and the next call must scan again rather than trust it.
   */
  follow(dirs: string[]): void {
    if (this.closed) return;
    if (dirs.length > MAX_WATCHED) return this.giveUp();
    const wanted = new Set(dirs);
    for (const [dir, watcher] of this.watches) {
      if (wanted.has(dir)) continue;
      watcher.close();
      this.watches.delete(dir);
      this.lastByDir.delete(dir);
    }
    for (const dir of dirs) {
      if (this.watches.has(dir)) continue;
      try {
        const watcher = watch(join(this.dataRoot, dir), { persistent: false }, () => this.touched(dir));
        watcher.on("error", () => this.giveUp());
        this.watches.set(dir, watcher);
        this.touched(dir);
      } catch (err) {
        // A folder gone since the scan: something changed. No watch left (ENOSPC...): watch nothing, scan always.
        if ((err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "ENOTDIR") this.touched();
        else return this.giveUp();
      }
    }
    if (this.lastEvent === Number.POSITIVE_INFINITY) this.lastEvent = 0;
    this.reliable = true;
  }

  private touched(dir?: string): void {
    this.lastEvent = performance.now();
    if (dir !== undefined) this.lastByDir.set(dir, this.lastEvent);
  }

  private giveUp(): void {
    this.reliable = false;
    for (const watcher of this.watches.values()) watcher.close();
    this.watches.clear();
    this.lastByDir.clear();
  }

  close(): void {
    this.closed = true;
    this.giveUp();
  }
}
