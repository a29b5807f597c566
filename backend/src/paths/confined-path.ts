/**
 * Confinement of user- and model-supplied paths to the data root.
 *
 * A lexical check alone is not enough (a symlink inside the root can point anywhere), and
 * neither is a realpath check alone (the file can be swapped between check and open). So:
 * refuse suspicious spellings, resolve the real path of the deepest existing ancestor, open
 * with O_NOFOLLOW, then confirm where the opened descriptor really is. Writes go to a temp
 * file in the (checked) target folder and are renamed into place, so they are also atomic.
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { chown, type FileHandle, mkdir, open, readlink, realpath, rename, rm, stat } from "node:fs/promises";
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

export interface ConfinedRead {
  /** Data-root-relative path. */
  path: string;
  content: string;
  bytes: number;
}

/** Reads a UTF-8 text file under `root`. Throws UserError (400/403/404/413/415) for anything else. */
export async function readConfinedText(
  root: string,
  relPath: string,
  maxBytes: number,
): Promise<ConfinedRead> {
  const rootReal = await realRoot(root);
  const { real, missing } = await deepestExisting(join(rootReal, relPath));
  if (!isInside(rootReal, real)) throw leaves();
  if (missing.length > 0) throw new UserError(404, `No such file: ${relPath}`);

  let handle;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw leaves();
    if (code === "ENOENT") throw new UserError(404, `No such file: ${relPath}`);
    if (code === "EACCES") throw new UserError(403, `Permission denied: ${relPath}`);
    throw err;
  }
  try {
    // The file could have been swapped for a symlink between realpath and open: ask the kernel.
    const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => real);
    if (!isInside(rootReal, opened)) throw leaves();
    const info = await handle.stat();
    if (info.isDirectory()) throw new UserError(400, `${relPath} is a folder, not a file.`);
    if (!info.isFile()) throw new UserError(400, `${relPath} is not a regular file.`);
    if (info.size > maxBytes) {
      throw new UserError(413, `${relPath} is ${info.size} bytes, over the ${maxBytes}-byte limit.`);
    }
    const buffer = await handle.readFile();
    if (buffer.subarray(0, 8192).includes(0)) {
      throw new UserError(415, `${relPath} is a binary file; only text files can be read.`);
    }
    return { path: relPath, content: buffer.toString("utf8"), bytes: buffer.length };
  } finally {
    await handle.close();
  }
}

/**
 * As root, new files and folders take the owner of the folder they are created in, so data
 * folders handed to the sandbox user stay writable for it after the server writes there.
 */
async function inheritOwner(target: string | FileHandle, parentDir: string): Promise<void> {
  if (!runningAsRoot) return;
  const parent = await stat(parentDir);
  if (parent.uid === 0 && parent.gid === 0) return;
  if (typeof target === "string") await chown(target, parent.uid, parent.gid);
  else await target.chown(parent.uid, parent.gid);
}

/**
 * Writes a text file under `root` atomically: the previous content stays intact if anything fails.
 * Missing folders are created, but only below an ancestor that is confirmed inside the root.
 */
export async function writeConfinedAtomic(root: string, relPath: string, content: string): Promise<void> {
  const rootReal = await realRoot(root);
  const target = join(rootReal, relPath);
  const parent = dirname(target);
  const { real: existingAncestor, missing } = await deepestExisting(parent);
  if (!isInside(rootReal, existingAncestor)) throw leaves();
  let created = existingAncestor;
  for (const part of missing) {
    const next = join(created, part);
    try {
      await mkdir(next);
      await inheritOwner(next, created);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    created = next;
  }
  const parentReal = await realpath(parent);
  if (!isInside(rootReal, parentReal)) throw leaves();

  const finalPath = join(parentReal, basename(target));
  const existing = await stat(finalPath).catch(() => null);
  if (existing?.isDirectory()) throw new UserError(400, `${relPath} is a folder, not a file.`);

  const temp = join(parentReal, `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  try {
    await inheritOwner(handle, parentReal);
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
