/**
 * Confinement of user- and model-supplied paths to the data root, and the one way the server
 * writes there. Reads are in read-confined-file.ts.
 *
 * A lexical check alone is not enough (a symlink inside the root can point anywhere), and
 * neither is a realpath check alone (a folder can be swapped between check and open). So paths
 * are cleaned here, and writes go folder by folder through open descriptors (dir-handle.ts), to a
 * temp file renamed into place within the same folder, so they are also atomic.
 */
import { unlink } from "node:fs/promises";
import { UserError } from "../lib/user-error.js";
import { DirHandle, inConfinedFolder } from "./dir-handle.js";
import { MAX_PATH_CHARS } from "@mini-openclaw/protocol";
import { type PathRefusal, relativeSegments } from "./relative-path.js";
import { CHECKPOINTS_DIR } from "../config/data-root-layout.js";

const SECRET_FILE = /^key\.md$/i;

/** A path the file API and the tools refuse, in their words and statuses. */
function refusal(refused: PathRefusal): UserError {
  switch (refused.kind) {
    case "empty":
      return new UserError("invalid_request", "A path is required.");
    case "too_long":
      return new UserError("invalid_request", `The path is too long (over ${MAX_PATH_CHARS} characters).`);
    case "nul":
      return new UserError("invalid_request", "The path holds a NUL byte.");
    case "backslash":
      return new UserError("invalid_request", "Backslashes are refused; separate folders with '/'.");
    case "absolute":
      return new UserError("refused", "Absolute paths are refused: paths are relative to the data root.");
    case "parent":
      return new UserError("refused", "'..' is refused: paths stay inside the data root.");
    case "no_name":
      return new UserError("invalid_request", "The path names the data root itself, not a file.");
    case "bad_name":
      return new UserError("unprocessable", `The path ${refused.problem}.`);
  }
}

/**
 * Turns a path as a user or the model writes it into a clean data-root-relative path
 * (`a/b/c.md`), or throws. Accepts the form the skills snapshot uses (`./backend/skills/x/SKILL.md`)
 * by stripping the location prefix.
 */
export function normalizeUserPath(input: unknown, locationPrefix = "."): string {
  if (typeof input !== "string") throw new UserError("invalid_request", "A path is required.");
  if (/%[0-9a-f]{2}/i.test(input)) throw new UserError("invalid_request", "Percent-encoded paths are refused; write the path plainly.");
  const read = relativeSegments(input);
  if ("refused" in read) throw refusal(read.refused);
  let segments = read.segments;
  const prefix = locationPrefix.split("/").filter((s) => s !== "" && s !== ".");
  if (prefix.length > 0 && prefix.every((part, i) => segments[i] === part)) segments = segments.slice(prefix.length);
  if (segments.some((s) => SECRET_FILE.test(s))) {
    throw new UserError("refused", "KEY.md holds credentials and is never readable or writable here.");
  }
  if (segments.length === 0) throw new UserError("invalid_request", "The path names the data root itself, not a file.");
  // The change store (the files' earlier contents): no tool reads or rewrites it, and the file API neither.
  if (segments[0] === CHECKPOINTS_DIR) throw new UserError("refused", `${CHECKPOINTS_DIR}/ is the workbench's store of earlier file versions; it is not readable or writable here (use the changes view).`);
  return segments.join("/");
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
      throw new UserError("conflict", `${relPath}: a folder on its path changed during the save (${code}); nothing was saved. Try again.`);
    }
    throw err;
  }
}

/** Every step by descriptor (dir-handle.ts): a folder swapped for a link at any moment is never followed. */
async function writeNow(root: string, relPath: string, content: string | Uint8Array, mode: number): Promise<void> {
  const parts = relPath.split("/");
  const name = parts.pop()!;
  await inConfinedFolder(root, parts.join("/"), { create: true }, (folder) => folder.writeFileAtomic(name, content, mode));
}

/**
 * Removes a file (or a link, itself) under `root`, every folder on the way opened by descriptor: a
 * folder swapped for a link is never followed, and a folder in the file's place is left alone
 * (false). True when the file was removed or was already gone.
 */
export async function removeConfinedFile(root: string, relPath: string): Promise<boolean> {
  const parts = relPath.split("/");
  const name = parts.pop()!;
  const rootDir = await DirHandle.openRoot(root);
  try {
    let folder: DirHandle;
    try {
      folder = await rootDir.dirPath(parts.join("/"));
    } catch {
      return true; // its folder is gone, so is the file
    }
    try {
      await unlink(folder.at(name));
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return true;
      if (code === "EISDIR" || code === "EPERM") return false;
      throw err;
    } finally {
      await folder.close();
    }
  } finally {
    await rootDir.close();
  }
}
