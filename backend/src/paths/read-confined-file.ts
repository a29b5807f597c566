/**
 * The one way the server reads a file from the data root.
 *
 * The sandbox can write the data folders, so whatever is there is hostile input: a symlink to
 * /proc/self/environ or KEY.md, a FIFO that blocks a reader forever, a link to /dev/zero, a hard
 * link to a file outside, a file swapped for a link between a check and a read. So a read here:
 * - follows no symlink at any component (each component is checked with lstat, the final open uses
 *   O_NOFOLLOW, and the opened descriptor's real path must be exactly the path asked for, which
 *   also catches a folder swapped for a link between the check and the open);
 * - accepts only a regular file with one link, judged on the opened descriptor (O_NONBLOCK: a FIFO
 *   opened by a race never blocks the open);
 * - caps the bytes while reading (a file that grows past the cap mid-read is refused, not read
 *   whole), and gives up after a timeout.
 * Failures are UnreadableFileError with a `reason` the prompt view and the APIs can show.
 */
import { constants } from "node:fs";
import { type FileHandle, lstat, open, readlink, realpath } from "node:fs/promises";
import { join } from "node:path";
import type { ApiErrorCode } from "@mini-openclaw/protocol";
import { UserError } from "../lib/user-error.js";

export type UnreadableReason =
  | "missing"
  | "symlink"
  | "not-regular"
  | "folder"
  | "hard-link"
  | "too-large"
  | "binary"
  | "timeout"
  | "denied";

/** Why a read failed, as the protocol's error code. */
const CODE_OF: Record<UnreadableReason, ApiErrorCode> = {
  missing: "not_found",
  symlink: "refused",
  "not-regular": "invalid_request",
  folder: "invalid_request",
  "hard-link": "refused",
  "too-large": "too_large",
  binary: "unsupported_type",
  timeout: "timed_out",
  denied: "refused",
};

export class UnreadableFileError extends UserError {
  constructor(
    message: string,
    readonly reason: UnreadableReason,
  ) {
    super(CODE_OF[reason], message);
    this.name = "UnreadableFileError";
  }
}

export const isUnreadable = (err: unknown): err is UnreadableFileError => err instanceof UnreadableFileError;

export interface ReadLimits {
  maxBytes: number;
  /** A file over `maxBytes` is read from its end (its last `maxBytes`), not refused: the newest of a log. */
  tail?: boolean;
  /** Gives up waiting after this long (a hung filesystem, a swapped-in special file). */
  timeoutMs?: number;
}

export interface ConfinedFile {
  /** Data-root-relative path. */
  path: string;
  data: Buffer;
  bytes: number;
  mtimeMs: number;
  /** Bytes left out at the start (a tail read of a larger file). */
  skipped: number;
}

export interface ConfinedRead {
  path: string;
  content: string;
  bytes: number;
}

const DEFAULT_TIMEOUT_MS = 5000;
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

function kindOf(info: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (info.isFIFO()) return "a FIFO";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  return "not a file";
}

const symlinkRefused = (relPath: string, at: string) =>
  new UnreadableFileError(
    `symlink refused: ${at === relPath ? relPath : `${at} (on the way to ${relPath})`} is a symbolic link; ` +
      "the workbench never follows links in the data root.",
    "symlink",
  );

const missing = (relPath: string) => new UnreadableFileError(`No such file: ${relPath}`, "missing");

/**
 * Checks each component of `relPath` under `rootReal` without following any: a link anywhere is
 * refused, and so is anything at the end that is not a regular file. Gives clear reasons before
 * anything is opened (opening a device can have effects); the descriptor check after the open
 * is what makes it race-free.
 */
async function checkComponents(rootReal: string, relPath: string): Promise<void> {
  const parts = relPath.split("/");
  for (let i = 0; i < parts.length; i++) {
    const at = parts.slice(0, i + 1).join("/");
    const info = await lstat(join(rootReal, at)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT" || err.code === "ENOTDIR") return null;
      throw err;
    });
    if (!info) throw missing(relPath);
    if (info.isSymbolicLink()) throw symlinkRefused(relPath, at);
    const last = i === parts.length - 1;
    if (!last && !info.isDirectory()) throw missing(relPath);
    if (last && info.isDirectory()) throw new UnreadableFileError(`${relPath} is a folder, not a file.`, "folder");
    if (last && !info.isFile()) throw new UnreadableFileError(`${relPath} is not a regular file (${kindOf(info)}); refused.`, "not-regular");
  }
}

async function readCapped(handle: FileHandle, relPath: string, size: number, maxBytes: number): Promise<Buffer> {
  // One byte more than the cap: a file that grew past it since fstat is refused, not read whole.
  const buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
  let filled = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
    if (filled === buffer.length) {
      if (filled > maxBytes) throw tooLarge(relPath, filled, maxBytes);
      break; // exactly the size fstat reported, plus nothing more to read below the cap
    }
  }
  return buffer.subarray(0, filled);
}

const tooLarge = (relPath: string, size: number, maxBytes: number) =>
  new UnreadableFileError(`${relPath} is ${size > maxBytes ? `over ${maxBytes}` : size} bytes, over the ${maxBytes}-byte limit.`, "too-large");

async function readNow(root: string, relPath: string, maxBytes: number, tail = false): Promise<ConfinedFile> {
  const rootReal = await realpath(root);
  const expected = join(rootReal, relPath);
  await checkComponents(rootReal, relPath);
  let handle: FileHandle;
  try {
    handle = await open(expected, OPEN_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw symlinkRefused(relPath, relPath);
    if (code === "ENOENT" || code === "ENOTDIR") throw missing(relPath);
    if (code === "EACCES" || code === "EPERM") throw new UnreadableFileError(`Permission denied: ${relPath}`, "denied");
    throw err;
  }
  try {
    // Whatever happened between the checks and the open, the kernel knows what was opened.
    const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
    if (opened !== expected) throw symlinkRefused(relPath, relPath);
    const info = await handle.stat();
    if (info.isDirectory()) throw new UnreadableFileError(`${relPath} is a folder, not a file.`, "folder");
    if (!info.isFile()) throw new UnreadableFileError(`${relPath} is not a regular file (${kindOf(info)}); refused.`, "not-regular");
    if (info.nlink > 1) {
      throw new UnreadableFileError(`hard link refused: ${relPath} has ${info.nlink} links (it may be a file from elsewhere).`, "hard-link");
    }
    if (info.size > maxBytes && tail) {
      const data = Buffer.allocUnsafe(maxBytes);
      const { bytesRead } = await handle.read(data, 0, maxBytes, info.size - maxBytes);
      return { path: relPath, data: data.subarray(0, bytesRead), bytes: bytesRead, mtimeMs: info.mtimeMs, skipped: info.size - maxBytes };
    }
    if (info.size > maxBytes) throw tooLarge(relPath, info.size, maxBytes);
    const data = await readCapped(handle, relPath, info.size, maxBytes);
    return { path: relPath, data, bytes: data.length, mtimeMs: info.mtimeMs, skipped: 0 };
  } finally {
    await handle.close().catch(() => {});
  }
}

/** Reads a file under `root` by the rules above. `relPath` must be normalized (see normalizeUserPath). */
export async function readConfinedFile(root: string, relPath: string, limits: ReadLimits): Promise<ConfinedFile> {
  const timeoutMs = limits.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new UnreadableFileError(`Reading ${relPath} took over ${timeoutMs} ms; gave up.`, "timeout")),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([readNow(root, relPath, limits.maxBytes, limits.tail), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** A UTF-8 text file under `root`: the rules above, and no NUL bytes in its first 8 KB. */
export async function readConfinedText(root: string, relPath: string, maxBytes: number, timeoutMs?: number): Promise<ConfinedRead> {
  const file = await readConfinedFile(root, relPath, { maxBytes, timeoutMs });
  if (file.data.subarray(0, 8192).includes(0)) {
    throw new UnreadableFileError(`${relPath} is a binary file; only text files can be read.`, "binary");
  }
  return { path: relPath, content: file.data.toString("utf8"), bytes: file.bytes };
}

/** Like readConfinedText, but a missing file is null (other failures still throw). */
export async function readConfinedTextIfPresent(root: string, relPath: string, maxBytes: number): Promise<string | null> {
  try {
    return (await readConfinedText(root, relPath, maxBytes)).content;
  } catch (err) {
    if (isUnreadable(err) && err.reason === "missing") return null;
    throw err;
  }
}
