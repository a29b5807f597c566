/**
 * What a call leaves on disk, in allocated blocks: written bytes miss space allocated without
 * writing (fallocate, glibc's posix_fallocate fallback writing one byte per block, a file grown
 * through mmap). The data folders' filesystem's free space is sampled while the call runs (one
 * statfs, cheap); only when it shrank by more than the budget are the blocks of the files changed
 * since the call started counted (another writer on the same disk must not stop a call). A file
 * changed during the call counts whole: the budget errs toward stopping.
 */
import { type Dirent } from "node:fs";
import { lstat, opendir, statfs } from "node:fs/promises";
import { join } from "node:path";

/** Entries looked at per recount at most: a recount must stay cheap. */
const MAX_ENTRIES = 200_000;
/** Recounts at most this often while the disk stays past the budget for other reasons. */
const RECOUNT_GAP_MS = 1000;
/** File times are coarse on some filesystems: a file changed just before the start counts too. */
const CLOCK_SLACK_MS = 1000;

export class DiskBudget {
  private freeAtStart: bigint | null = null;
  private blockSize = 4096n;
  private lastRecount = 0;
  private readonly since = Date.now() - CLOCK_SLACK_MS;

  constructor(
    private readonly dataRoot: string,
    private readonly folders: string[],
    private readonly maxBytes: number,
  ) {}

  async start(): Promise<void> {
    const fs = await statfs(this.dataRoot, { bigint: true });
    this.freeAtStart = fs.bfree;
    this.blockSize = fs.bsize;
  }

  /** Bytes the call has put on disk when that is over the budget; null while it is within it. */
  async overBudget(): Promise<number | null> {
    if (this.freeAtStart === null) return null;
    const fs = await statfs(this.dataRoot, { bigint: true });
    const shrunk = Number((this.freeAtStart - fs.bfree) * this.blockSize);
    if (shrunk <= this.maxBytes || Date.now() - this.lastRecount < RECOUNT_GAP_MS) return null;
    this.lastRecount = Date.now();
    const counted = await this.changedBytes();
    return counted > this.maxBytes ? counted : null;
  }

  /** Allocated bytes of the regular files under the folders changed since the call started (links never followed). */
  async changedBytes(): Promise<number> {
    let total = 0;
    let seen = 0;
    const queue = [...this.folders];
    while (queue.length > 0 && seen < MAX_ENTRIES) {
      const dir = queue.shift()!;
      // Entries a batch at a time (a folder of a million names is never one array on the server's thread).
      const handle = await opendir(dir, { bufferSize: 64 }).catch(() => null);
      if (!handle) continue;
      let batch: Dirent[] = [];
      const count = async () => {
        await Promise.all(
          batch.map(async (entry) => {
            const path = join(dir, entry.name);
            if (entry.isDirectory()) queue.push(path);
            else if (entry.isFile()) {
              const info = await lstat(path).catch(() => null);
              if (info?.isFile() && Math.max(info.mtimeMs, info.ctimeMs) >= this.since) total += info.blocks * 512;
            }
          }),
        );
        batch = [];
      };
      try {
        for await (const entry of handle) {
          batch.push(entry);
          if (++seen >= MAX_ENTRIES) break;
          if (batch.length === 64) await count();
        }
      } catch {
        // The folder went away mid-count: what was counted stands.
      }
      await count();
    }
    return total;
  }
}
