import { lchown, lstat, readdir, realpath } from "node:fs/promises";
import { join } from "node:path";
import { runningAsRoot } from "../lib/running-as-root.js";
import { WRITABLE_DATA_DIRS } from "./sandbox-profile.js";

const BATCH = 64;

async function chownTree(path: string, uid: number): Promise<number> {
  const info = await lstat(path).catch(() => null);
  if (!info) return 0;
  let changed = 0;
  if (info.uid !== uid) {
    await lchown(path, uid, uid);
    changed++;
  }
  // Never follow symlinks: a link planted here must not hand its target to the sandbox user.
  // lchown never follows the last component; a folder on the way swapped for a link is caught by
  // comparing its real path before its entries are touched.
  if (info.isDirectory() && !info.isSymbolicLink() && (await realpath(path).catch(() => null)) === path) {
    // A folder's entries a batch at a time: one by one, a knowledge folder of 8,000 files held up the start by ~0.4 s.
    const names = await readdir(path);
    for (let i = 0; i < names.length; i += BATCH) {
      const counts = await Promise.all(names.slice(i, i + BATCH).map((name) => chownTree(join(path, name), uid)));
      changed += counts.reduce((sum, n) => sum + n, 0);
    }
  }
  return changed;
}

/**
 * When the workbench runs as root, sandboxed tools run as an unprivileged user, who must be able
 * to write the data folders. Root keeps full access to them either way. Only the data folders
 * are handed over, never the rest of the data root (which, by default, holds the backend's code).
 */
export async function grantDataDirsToSandbox(dataRoot: string, uid: number): Promise<number> {
  if (!runningAsRoot) return 0;
  let changed = 0;
  const root = await realpath(dataRoot);
  for (const dir of WRITABLE_DATA_DIRS) changed += await chownTree(join(root, dir), uid);
  return changed;
}
