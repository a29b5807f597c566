/**
 * The documents under `knowledge/` as the indexer sees them: walked without following links, at most
 * `MAX_DOCUMENTS` of them and `MAX_FOLDER_DEPTH` folders deep, of the kinds the index reads; a
 * document over the size limit is noted with why, not listed.
 */
import { walkConfinedDir } from "../paths/walk-confined-dir.js";
import { KNOWLEDGE_EXTENSIONS, MAX_DOCUMENT_BYTES } from "./document-kinds.js";

const MAX_DOCUMENTS = 20_000;
const MAX_FOLDER_DEPTH = 16;

export interface KnowledgeFolder {
  /** Each document's size and time, by its data-root path. */
  found: Map<string, { size: number; mtimeMs: number }>;
  skipped: Array<{ path: string; reason: string }>;
  /** Why the walk stopped short, or null. */
  truncated: string | null;
  /** The folders walked (for the watcher). */
  dirs: string[];
}

export async function listKnowledgeFolder(dataRoot: string): Promise<KnowledgeFolder> {
  const walk = await walkConfinedDir(dataRoot, "knowledge", {
    maxDepth: MAX_FOLDER_DEPTH,
    maxFiles: MAX_DOCUMENTS,
    accept: (name) => KNOWLEDGE_EXTENSIONS.test(name),
  });
  const found = new Map<string, { size: number; mtimeMs: number }>();
  const skipped = [...walk.skipped];
  for (const file of walk.files) {
    if (file.size > MAX_DOCUMENT_BYTES) skipped.push({ path: file.path, reason: `${file.size} bytes, over the ${MAX_DOCUMENT_BYTES}-byte limit for a document` });
    else found.set(file.path, { size: file.size, mtimeMs: file.mtimeMs });
  }
  return { found, skipped, truncated: walk.truncated, dirs: walk.dirs };
}
