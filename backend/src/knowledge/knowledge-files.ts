/**
 * Adding and removing knowledge documents as files (the upload and delete routes, the Knowledge
 * view's drop and remove). knowledge/ is a folder the sandbox writes, so every step goes through
 * open directory descriptors (dir-handle.ts): a folder swapped for a link is never followed, and a
 * new document never replaces anything. A removed document goes to a trash under storage/ (which
 * the sandbox cannot write), byte for byte, so the view can undo it.
 */
import { randomBytes } from "node:crypto";
import { link, lstat, mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { UserError } from "../lib/user-error.js";
import { type DirHandle, inConfinedFolder } from "../paths/dir-handle.js";
import { MAX_PATH_CHARS } from "@mini-openclaw/protocol";
import { shownName } from "../paths/name-problem.js";
import { type PathRefusal, relativeSegments } from "../paths/relative-path.js";
import { KNOWLEDGE_EXTENSIONS } from "./document-kinds.js";

const TRASH = join("storage", "trash", "knowledge");
const TRASH_NAME = /^\d{13}-[0-9a-f]{12}$/;

/** Why a name cannot be a document's path, in the upload's words. */
function refusalWords(refused: PathRefusal): string {
  switch (refused.kind) {
    case "empty":
    case "no_name":
      return "names no file";
    case "too_long":
      return `is over ${MAX_PATH_CHARS} characters`;
    case "nul":
    case "backslash":
      return "holds a NUL byte or a backslash";
    case "absolute":
      return "is an absolute path: name a file inside knowledge/";
    case "parent":
      return "goes up a folder ('..'): documents stay inside knowledge/";
    case "bad_name":
      return refused.problem;
  }
}

/** The data-root-relative path a name given for knowledge/ stands for, or a 422 saying why not. */
export function knowledgePath(name: unknown): string {
  if (typeof name !== "string" || name.trim() === "") throw new UserError("invalid_request", "A file name is required (?filename=NAME).");
  const refuse = (why: string): never => {
    throw new UserError("unprocessable", `${shownName(name.slice(0, 120))} ${why}; nothing was written.`);
  };
  const read = relativeSegments(name);
  if ("refused" in read) return refuse(refusalWords(read.refused));
  const { segments } = read;
  if (segments.some((s) => s.startsWith("."))) refuse("names a hidden file or folder");
  if (segments[0] === "knowledge" && segments.length > 1) segments.shift();
  if (!KNOWLEDGE_EXTENSIONS.test(segments[segments.length - 1])) {
    refuse("is not a kind of document the index reads (Markdown, text, CSV, TSV, PDF, Word, PowerPoint, Excel, EPUB, HTML)");
  }
  return ["knowledge", ...segments].join("/");
}

/** Runs `fn` in a path's folder under the data root; a folder on the way that is a link or a file is a 422 (404 when not creating). */
async function inFolder<T>(dataRoot: string, path: string, create: boolean, fn: (folder: DirHandle, name: string) => Promise<T>): Promise<T> {
  const parts = path.split("/");
  const name = parts.pop()!;
  let inside = false;
  try {
    return await inConfinedFolder(dataRoot, parts.join("/"), { create }, (folder) => {
      inside = true;
      return fn(folder, name);
    });
  } catch (err) {
    // Only the way to the folder is refused so; what `fn` throws is its own answer.
    if (!inside && err instanceof UserError && (err.code === "refused" || err.code === "conflict")) {
      throw new UserError(create ? "unprocessable" : "not_found", `${err.message} Nothing was written.`);
    }
    throw err;
  }
}

/** Stores a new document byte for byte; 409 (the file untouched) when the name is taken. */
export async function addKnowledgeFile(dataRoot: string, path: string, bytes: Uint8Array): Promise<void> {
  await inFolder(dataRoot, path, true, (folder, name) => folder.createFile(name, bytes));
}

/** Moves a document (a regular file) to the trash; returns its name there. */
export async function trashKnowledgeFile(dataRoot: string, path: string): Promise<string> {
  const trash = join(dataRoot, TRASH);
  await mkdir(trash, { recursive: true, mode: 0o700 });
  const trashName = `${Date.now()}-${randomBytes(6).toString("hex")}`;
  await inFolder(dataRoot, path, false, async (folder, name) => {
    const info = await lstat(folder.at(name)).catch(() => null);
    if (!info) throw new UserError("not_found", `No such document: ${path}.`);
    if (!info.isFile()) throw new UserError("unprocessable", `${path} is not a regular file (a link or a folder); it was left as it is.`);
    await writeFile(join(trash, `${trashName}.json`), JSON.stringify({ path }), { mode: 0o600 });
    await rename(folder.at(name), join(trash, trashName));
  });
  return trashName;
}

/** Puts a trashed document back where it was; never over a file that took its name meanwhile (409). */
export async function restoreKnowledgeFile(dataRoot: string, trashName: string): Promise<string> {
  if (!TRASH_NAME.test(trashName)) throw new UserError("invalid_request", `"${trashName.slice(0, 60)}" is not the name of a trashed document.`);
  const trash = join(dataRoot, TRASH);
  const record = await readFile(join(trash, `${trashName}.json`), "utf8").catch(() => null);
  if (record === null) throw new UserError("not_found", `${trashName} is not in the trash (any more).`);
  const path = knowledgePath((JSON.parse(record) as { path: string }).path);
  await inFolder(dataRoot, path, true, async (folder, name) => {
    try {
      await link(join(trash, trashName), folder.at(name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") throw new UserError("conflict", `${path} exists again; the trashed one stays in ${TRASH}/${trashName}.`);
      throw err;
    }
  });
  await unlink(join(trash, trashName));
  await unlink(join(trash, `${trashName}.json`));
  return path;
}
