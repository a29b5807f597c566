/**
 * Lists folders of the data root the way read-confined-file reads files: no symlink followed at
 * any component (a linked folder is reported, never entered), only regular files returned, and
 * caps on depth and entries so a planted tree of 100,000 files or 1,000 levels cannot stall a scan.
 */
import { lstat, readdir, realpath } from "node:fs/promises";
import { join } from "node:path";

export interface WalkedFile {
  /** Data-root-relative path. */
  path: string;
  size: number;
  mtimeMs: number;
}

export interface SkippedEntry {
  path: string;
  reason: string;
}

export interface WalkResult {
  files: WalkedFile[];
  skipped: SkippedEntry[];
  /** The folders listed (data-root-relative, `relDir` first when it exists): what a watcher watches. */
  dirs: string[];
  /** Set when a cap stopped the walk: what was left out, in words. */
  truncated: string | null;
}

export interface WalkOptions {
  /** Folder levels below `relDir` to enter (0: only its own files). */
  maxDepth: number;
  /** Files to return at most; the walk stops there. */
  maxFiles: number;
  /** Which files to keep (by name); others are passed over silently. */
  accept?: (name: string) => boolean;
  /** Skip dot-files and dot-folders (default true). */
  skipHidden?: boolean;
}

/** True when every component of `relDir` under the real root is a real folder (no links). */
export async function isConfinedDir(root: string, relDir: string): Promise<boolean> {
  const rootReal = await realpath(root);
  let at = rootReal;
  for (const part of relDir.split("/").filter(Boolean)) {
    at = join(at, part);
    const info = await lstat(at).catch(() => null);
    if (!info || info.isSymbolicLink() || !info.isDirectory()) return false;
  }
  return true;
}

/** The entries of one folder, by kind as the folder itself says (a link is a link, never its target). */
export async function readConfinedDir(
  root: string,
  relDir: string,
): Promise<Array<{ name: string; kind: "file" | "dir" | "symlink" | "other" }> | null> {
  if (!(await isConfinedDir(root, relDir))) return null;
  const rootReal = await realpath(root);
  const absolute = join(rootReal, relDir);
  const entries = await readdir(absolute, { withFileTypes: true }).catch(() => null);
  // A folder swapped for a link during the listing: refuse what was listed.
  if (!entries || (await realpath(absolute).catch(() => null)) !== absolute) return null;
  return entries.map((e) => ({
    name: e.name,
    kind: e.isSymbolicLink() ? "symlink" : e.isDirectory() ? "dir" : e.isFile() ? "file" : "other",
  }));
}

/** Walks `relDir` (data-root-relative) breadth-first within the caps. A missing folder is empty. */
export async function walkConfinedDir(root: string, relDir: string, options: WalkOptions): Promise<WalkResult> {
  const files: WalkedFile[] = [];
  const skipped: SkippedEntry[] = [];
  const dirs: string[] = [];
  const skipHidden = options.skipHidden ?? true;
  let truncated: string | null = null;
  let level: string[] = [relDir];
  for (let depth = 0; level.length > 0 && truncated === null; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      const entries = await readConfinedDir(root, dir);
      if (!entries) {
        if (dir !== relDir) skipped.push({ path: dir, reason: "symlink refused (or changed during the scan)" });
        continue;
      }
      dirs.push(dir);
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        if (skipHidden && entry.name.startsWith(".")) continue;
        const path = `${dir}/${entry.name}`;
        if (entry.kind === "symlink") skipped.push({ path, reason: "symlink refused" });
        else if (entry.kind === "other") skipped.push({ path, reason: "not a regular file" });
        else if (entry.kind === "dir") {
          if (depth < options.maxDepth) next.push(path);
        } else if (!options.accept || options.accept(entry.name)) {
          const info = await lstat(join(root, path)).catch(() => null);
          if (!info?.isFile()) continue; // changed since the listing: the next walk sees it
          if (files.length >= options.maxFiles) {
            truncated = `more than ${options.maxFiles} files under ${relDir}/; the rest are left out`;
            break;
          }
          files.push({ path, size: info.size, mtimeMs: info.mtimeMs });
        }
      }
      if (truncated !== null) break;
    }
    level = next;
  }
  return { files, skipped, dirs, truncated };
}
