/**
 * Confinement of user- and model-supplied paths to the data root, and the one way the server
 * writes there. Reads are in read-confined-file.ts.
 *
 * A lexical check alone is not enough (a symlink inside the root can point anywhere), and
 * neither is a realpath check alone (a folder can be swapped between check and open). So:
 * refuse suspicious spellings, resolve the real path of the deepest existing ancestor, open
 * with O_NOFOLLOW, then confirm where the opened descriptor really is. Writes go to a temp
 * file in the (checked) target folder and are renamed into place, so they are also atomic.
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readlink, realpath, rename, rm } from "node:fs/promises";
import { basename, dirname, join, sep } from "node:path";
import { runningAsRoot } from "../lib/running-as-root.js";
import { UserError } from "../lib/user-error.js";

const SECRET_FILE = /^key\.md$/i;

export function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Turns a path as a user or the model writes it into a clean data-root-relative path
 * (`a/b/c.md`), or throws. Accepts the form the skills snapshot uses (`./backend/skills/x/SKILL.md`)
 * by stripping the location prefix.
 */
export function normalizeUserPath(input: unknown, locationPrefix = "."): string {
  if (typeof input !== "string" || input.length === 0) throw new UserError(400, "A path is required.");
  if (input.length > 1024) throw new UserError(400, "The path is too long (over 1024 characters).");
  if (input.includes("\0")) throw new UserError(400, "The path holds a NUL byte.");
  if (/%[0-9a-f]{2}/i.test(input)) throw new UserError(400, "Percent-encoded paths are refused; write the path plainly.");
  if (input.includes("\\")) throw new UserError(400, "Backslashes are refused; separate folders with '/'.");
  if (input.startsWith("/") || input.startsWith("~") || /^[a-zA-Z]:/.test(input)) {
    throw new UserError(403, "Absolute paths are refused: paths are relative to the data root.");
  }
  let segments = input.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) throw new UserError(403, "'..' is refused: paths stay inside the data root.");
  const prefix = locationPrefix.split("/").filter((s) => s !== "" && s !== ".");
  if (prefix.length > 0 && prefix.every((part, i) => segments[i] === part)) segments = segments.slice(prefix.length);
  if (segments.some((s) => SECRET_FILE.test(s))) {
    throw new UserError(403, "KEY.md holds credentials and is never readable or writable here.");
  }
  if (segments.length === 0) throw new UserError(400, "The path names the data root itself, not a file.");
  return segments.join("/");
}

/** The real path of the data root (resolved once per call: the root itself may be a symlink). */
async function realRoot(root: string): Promise<string> {
  return realpath(root);
}

/** Real path of the deepest ancestor of `absolute` that exists, plus the missing remainder. */
async function deepestExisting(absolute: string): Promise<{ real: string; missing: string[] }> {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return { real: await realpath(current), missing };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      const parent = dirname(current);
      if (parent === current) throw err;
      missing.unshift(basename(current));
      current = parent;
    }
  }
}

function leaves(): UserError {
  return new UserError(403, "The path leaves the data root (through a symlink); refused.");
}

/**
 * As root, new files and folders take the owner of the folder they are created in, so data
 * folders handed to the sandbox user stay writable for it after the server writes there.
 * Only ever on a descriptor (fchown): a path could be swapped for a link by the sandbox.
 */
async function inheritOwner(target: FileHandle, parent: FileHandle): Promise<void> {
  if (!runningAsRoot) return;
  const owner = await parent.stat();
  if (owner.uid === 0 && owner.gid === 0) return;
  await target.chown(owner.uid, owner.gid);
}

/** The real path of an open descriptor, as the kernel sees it. */
const openedPath = (handle: FileHandle) => readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);

/** Opens a folder that must be exactly `expected` (no link followed on the way), or throws. */
async function openExactDir(expected: string): Promise<FileHandle> {
  const handle = await open(expected, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  if ((await openedPath(handle)) !== expected) {
    await handle.close();
    throw leaves();
  }
  return handle;
}

/** Errors that mean the path changed under the save (a folder removed, or swapped for a file or a link). */
const CHANGED_UNDERFOOT = new Set(["ENOENT", "ENOTDIR", "ELOOP"]);

/**
 * Writes a text file under `root` atomically: the previous content stays intact if anything fails.
 * Missing folders are created, but only below an ancestor that is confirmed inside the root.
 * A path that changes during the save (the sandbox can change the data folders at any time) is a
 * 409 with nothing saved.
 */
export async function writeConfinedAtomic(root: string, relPath: string, content: string | Uint8Array, options: { mode?: number } = {}): Promise<void> {
  try {
    await writeNow(root, relPath, content, options.mode ?? 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code && CHANGED_UNDERFOOT.has(code)) {
      throw new UserError(409, `${relPath}: a folder on its path changed during the save (${code}); nothing was saved. Try again.`);
    }
    throw err;
  }
}

async function writeNow(root: string, relPath: string, content: string | Uint8Array, mode: number): Promise<void> {
  const rootReal = await realRoot(root);
  const target = join(rootReal, relPath);
  const parent = dirname(target);
  const { real: existingAncestor, missing } = await deepestExisting(parent);
  if (!isInside(rootReal, existingAncestor)) throw leaves();
  let created = existingAncestor;
  for (const part of missing) {
    const next = join(created, part);
    const made = await mkdir(next).then(
      () => true,
      (err: NodeJS.ErrnoException) => {
        if (err.code !== "EEXIST") throw err;
        return false;
      },
    );
    if (made && runningAsRoot) {
      const [dir, above] = [await openExactDir(next), await openExactDir(created)];
      try {
        await inheritOwner(dir, above);
      } finally {
        await Promise.all([dir.close(), above.close()]);
      }
    }
    created = next;
  }
  const parentReal = await realpath(parent);
  if (!isInside(rootReal, parentReal)) throw leaves();

  const finalPath = join(parentReal, basename(target));
  const existing = await lstat(finalPath).catch(() => null);
  if (existing?.isDirectory()) throw new UserError(400, `${relPath} is a folder, not a file.`);

  const temp = join(parentReal, `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  try {
    // The folder could have been swapped for a link since realpath: write only where we meant to.
    if ((await openedPath(handle)) !== temp) throw leaves();
    const folder = await openExactDir(parentReal);
    try {
      await inheritOwner(handle, folder);
    } finally {
      await folder.close();
    }
    await handle.writeFile(content, "utf8");
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => {});
    await rm(temp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await rename(temp, finalPath);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
