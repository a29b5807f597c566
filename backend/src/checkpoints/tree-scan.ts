/**
 * The files of the folders the sandbox can write, with what says whether they changed (type, size,
 * mode, change time in nanoseconds, inode), from `find` processes off the server's thread, never
 * following a link (`-P`). It stats 20,000 files in ~40 ms.
 *
 * The sandbox controls these folders, so the scan is built not to be flooded or fooled:
 * - each writable folder is scanned with its own budget: a flood in one never hides another;
 * - a folder scanned only in part still has its subfolders listed (to be watched), so a change in the
 *   part not scanned is found from its folder's file events (`listFolder`);
 * - names are read as bytes: one that is not UTF-8 is reported apart (`oddNames`), never turned into a
 *   look-alike that a second name would merge with, or that would not name the file on disk.
 */
import { spawn } from "node:child_process";
import { WRITABLE_DATA_DIRS } from "../sandbox/sandbox-profile.js";

/** Files scanned per writable folder; past it the folder is scanned in part. */
export const MAX_SCANNED_PER_ROOT = 60_000;
/** Subfolders listed per writable folder (each is watched). */
export const MAX_FOLDERS_PER_ROOT = 4_000;
/** Entries read from one folder when its file events ask for it. */
export const MAX_FOLDER_ENTRIES = 20_000;
const SCAN_TIMEOUT_MS = 20_000;

export interface ScannedFile {
  /** `f` a regular file, `l` a link, `o` anything else that is not a folder. */
  type: "f" | "l" | "o";
  size: number;
  /** Permission bits (and set-id, sticky). */
  mode: number;
  /** Whether it changed since another scan: type, size, mode, change time, inode. */
  sig: string;
}

export interface TreeScan {
  files: Map<string, ScannedFile>;
  /** The folders it went through (data-root-relative), the writable roots first. */
  dirs: string[];
  /** Writable folders scanned in part, with why (over the budget, the time limit). */
  partial: Map<string, string>;
  /** Entries whose name is not UTF-8: shown with `\xNN` for the odd bytes, keyed by their bytes. */
  oddNames: Map<string, { shown: string; sig: string }>;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** A name's bytes as text, or null when they are not UTF-8. */
function utf8(bytes: Buffer): string | null {
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/** How a name that is not UTF-8 is shown: its valid parts as they are, every other byte as `\xNN`. */
export function shownBytes(bytes: Buffer): string {
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    const width = lead < 0x80 ? 1 : lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead >= 0xf0 && lead < 0xf5 ? 4 : 0;
    const piece = width > 0 && i + width <= bytes.length ? utf8(bytes.subarray(i, i + width)) : null;
    if (piece !== null) {
      out += piece;
      i += width;
    } else {
      out += `\\x${lead.toString(16).padStart(2, "0")}`;
      i++;
    }
  }
  return out;
}

interface FindEntry {
  type: string;
  size: number;
  mode: number;
  sig: string;
  /** Status change time in seconds (to the microsecond: a double holds no more). */
  ctime: number;
  /** The path as found (`./…`), one character per byte (latin1): a name's bytes as they are on disk. */
  path: string;
}

/** A byte past ASCII, in a path read as latin1. */
const NOT_ASCII = /[\u0080-\u00ff]/;

/** A path read as latin1 (a character per byte) as text, or null when its bytes are not UTF-8. */
function nameOf(bytes: string): string | null {
  return NOT_ASCII.test(bytes) ? utf8(Buffer.from(bytes, "latin1")) : bytes;
}

/**
 * Runs `find` with a -printf of type, size, mode, ctime, mtime, inode and path (NUL-separated), and
 * calls `each` per entry until it returns false (then `find` is stopped). Resolves with why it was
 * cut short, or null. The output is read as latin1 and split on NUL in one pass per chunk: a
 * Buffer per field and a copy per path cost more than the `find` itself (~2 us an entry).
 */
function runFind(cwd: string, args: string[], each: (entry: FindEntry) => boolean, test: string[] = []): Promise<string | null> {
  return new Promise((resolve, reject) => {
    // %y type, %s size, %m mode (octal), %C@ status change time (any write, rename or chmod), %T@ mtime, %i inode, %p the path as found.
    const child = spawn("find", ["-P", ...args, ...test, "-printf", "%y\\0%s\\0%m\\0%C@\\0%T@\\0%i\\0%p\\0"], { cwd, stdio: ["ignore", "pipe", "ignore"] });
    let cut: string | null = null;
    let rest = "";
    let fields: string[] = [];
    const timer = setTimeout(() => {
      cut = `the scan took over ${SCAN_TIMEOUT_MS / 1000} s`;
      child.kill("SIGKILL");
    }, SCAN_TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => {
      if (cut) return;
      const parts = (rest + chunk.toString("latin1")).split("\0");
      // The last part is unfinished (empty when the chunk ended on a NUL): carried over.
      rest = parts.pop()!;
      for (const part of parts) {
        fields.push(part);
        if (fields.length < 7) continue;
        const [type, size, mode, ctime, mtime, inode, path] = fields;
        fields = [];
        const modeBits = Number.parseInt(mode, 8);
        const entry = { type, size: Number(size), mode: modeBits, sig: `${type}:${size}:${modeBits.toString(8)}:${ctime}:${mtime}:${inode}`, ctime: Number(ctime), path };
        if (!each(entry)) {
          cut = "stopped";
          child.kill("SIGKILL");
          break;
        }
      }
    });
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    // `find` exits 1 when a folder is missing or vanished mid-scan: what it saw still counts.
    child.once("close", () => {
      clearTimeout(timer);
      resolve(cut === "stopped" ? null : cut);
    });
  });
}

const kindOf = (type: string): ScannedFile["type"] => (type === "f" ? "f" : type === "l" ? "l" : "o");

/** Adds a `find` entry to a scan (its path made data-root-relative from `./…`). */
function take(scan: TreeScan, entry: FindEntry): "file" | "dir" | "odd" {
  const rel = entry.path.slice(2);
  const name = nameOf(rel);
  if (name === null) {
    const bytes = Buffer.from(rel, "latin1");
    scan.oddNames.set(bytes.toString("hex"), { shown: shownBytes(bytes), sig: entry.sig });
    return "odd";
  }
  if (entry.type === "d") {
    scan.dirs.push(name);
    return "dir";
  }
  scan.files.set(name, { type: kindOf(entry.type), size: entry.size, mode: entry.mode, sig: entry.sig });
  return "file";
}

export const emptyScan = (): TreeScan => ({ files: new Map(), dirs: [], partial: new Map(), oddNames: new Map() });

/** Counts a `find` entry's file against its writable folder's budget: false once that folder is over it. */
function perRootBudget(): (entry: FindEntry) => boolean {
  const files = new Map<string, number>();
  return (entry) => {
    const root = entry.path.slice(2, entry.path.indexOf("/", 2) >>> 0);
    const n = (files.get(root) ?? 0) + 1;
    files.set(root, n);
    return n <= MAX_SCANNED_PER_ROOT;
  };
}

/**
 * Every root in one `find`, each root's files counted against its budget: the usual case, where no
 * folder is flooded, costs one process instead of one per root (a spawn from the server is several
 * ms). Null when a root went over its budget or the scan was cut short: then each root is scanned on
 * its own, as a flooded one must be.
 */
async function scanAtOnce(dataRoot: string, roots: readonly string[]): Promise<TreeScan | null> {
  const scan = emptyScan();
  const withinBudget = perRootBudget();
  let over = false;
  const cut = await runFind(
    dataRoot,
    roots.map((root) => `./${root}`),
    (entry) => {
      if (take(scan, entry) === "dir" || withinBudget(entry)) return true;
      over = true;
      return false;
    },
  );
  return over || cut !== null ? null : scan;
}

/** Scans the writable data folders of `dataRoot`, each within its own budget; paths come back data-root-relative (`workspace/a.md`). */
export async function scanWritableTree(dataRoot: string, roots: readonly string[] = WRITABLE_DATA_DIRS): Promise<TreeScan> {
  if (roots.length > 1) {
    const whole = await scanAtOnce(dataRoot, roots);
    if (whole) return whole;
  }
  const scan = emptyScan();
  await Promise.all(
    roots.map(async (root) => {
      let files = 0;
      let over = false;
      const cut = await runFind(dataRoot, [`./${root}`], (entry) => {
        if (take(scan, entry) === "dir") return true;
        if (++files <= MAX_SCANNED_PER_ROOT) return true;
        over = true;
        return false;
      });
      const why = over ? `over ${MAX_SCANNED_PER_ROOT} files` : cut;
      if (!why) return;
      scan.partial.set(root, why);
      // Scanned in part: its folders are still listed, so that each is watched.
      const listed = new Set(scan.dirs);
      let folders = 0;
      await runFind(dataRoot, [`./${root}`, "-type", "d"], (entry) => {
        const name = nameOf(entry.path.slice(2));
        if (name !== null && !listed.has(name)) scan.dirs.push(name);
        return ++folders < MAX_FOLDERS_PER_ROOT;
      });
    }),
  );
  return scan;
}

export interface ChangedScan extends TreeScan {
  /** Folders whose status changed at or after the time asked (an entry added, removed or renamed). */
  changedDirs: string[];
}

/**
 * Every folder, and the files whose status changed at or after `since` (seconds, the file system's
 * clock): one `find` that still looks at every file, but hands over only those, so a scan after a call
 * that touched one file costs a stat per file and nothing per unchanged one on this thread. The status
 * change time is the kernel's: a write (through a mapping too, which no folder event reports), a
 * rename, a chmod or a `touch -d` all set it to now, and nothing in the sandbox can set it back.
 * Null when a folder's new files go over its budget, a name is not UTF-8, or the scan is cut short:
 * then the caller scans in full, which knows how to say what it could not see.
 */
export async function scanChangedSince(dataRoot: string, since: number, roots: readonly string[] = WRITABLE_DATA_DIRS): Promise<ChangedScan | null> {
  const scan: ChangedScan = { ...emptyScan(), changedDirs: [] };
  const withinBudget = perRootBudget();
  let refused = false;
  const cut = await runFind(
    dataRoot,
    roots.map((root) => `./${root}`),
    (entry) => {
      const kind = take(scan, entry);
      if (kind === "odd") refused = true;
      else if (kind === "dir") {
        if (entry.ctime >= since) scan.changedDirs.push(scan.dirs.at(-1)!);
        return true;
      } else if (!withinBudget(entry)) refused = true;
      return !refused;
    },
    // `-newerct @T` is "changed after T"; T is taken a margin before the last scan, so "at" holds too.
    ["(", "-type", "d", "-o", "-newerct", `@${since.toFixed(6)}`, ")"],
  );
  return refused || cut !== null ? null : scan;
}

/**
 * One folder's own entries (not below them): its files, its subfolders (new ones are scanned whole,
 * within the same budget), and whether it holds more than can be read.
 */
export async function listFolder(dataRoot: string, dir: string): Promise<TreeScan & { over: boolean }> {
  const scan = emptyScan();
  let entries = 0;
  let over = false;
  const cut = await runFind(dataRoot, [`./${dir}`, "-mindepth", "1", "-maxdepth", "1"], (entry) => {
    take(scan, entry);
    if (++entries <= MAX_FOLDER_ENTRIES) return true;
    over = true;
    return false;
  });
  return { ...scan, over: over || cut !== null };
}

/** These files as they are now (the ones that exist), each looked at where it is, never by a scan of its folder. */
export async function statPaths(dataRoot: string, paths: string[]): Promise<Map<string, ScannedFile>> {
  const scan = emptyScan();
  for (let i = 0; i < paths.length; i += 500) {
    await runFind(dataRoot, [...paths.slice(i, i + 500).map((p) => `./${p}`), "-maxdepth", "0"], (entry) => {
      take(scan, entry);
      return true;
    });
  }
  return scan.files;
}
