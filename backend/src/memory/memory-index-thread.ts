/**
 * The memory index's worker thread (memory-index.ts): keeps MEMORY.md's and the daily logs' passages
 * in a BM25 index between searches, and before each search brings it to the files as they are.
 */
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { Bm25Index } from "../knowledge/bm25-index.js";
import { chunkText } from "../knowledge/chunk-text.js";
import { textTerms } from "../knowledge/text-terms.js";
import { isUnreadable, readConfinedText } from "../paths/read-confined-file.js";
import { serveJobs } from "../workers/serve-jobs.js";
import { LOGS_DIR } from "./daily-log.js";
import { MAX_FILE_BYTES, MAX_LINE_CHARS, MAX_LOGS, MAX_TOTAL_BYTES, type MemoryHit, type MemoryJob, type MemoryReply } from "./memory-index.js";
import { MEMORY_FILE } from "../config/data-root-layout.js";

/** Passages short enough to point at one fact (a daily log's line is one). */
const PASSAGE = { size: 600, overlap: 60 };
const LOG_NAME = /^\d{4}-\d{2}-\d{2}\.md$/;

interface Passage {
  path: string;
  line: number;
  text: string;
}
interface IndexedFile {
  stamp: string;
  ids: number[];
}

const index = new Bm25Index();
const passages = new Map<number, Passage>();
const files = new Map<string, IndexedFile>();
let nextId = 0;
let root = "";

/** MEMORY.md, then the daily logs (regular files named YYYY-MM-DD.md), newest first, within the caps. */
async function memoryFiles(dataRoot: string): Promise<{ paths: string[]; leftOut: number }> {
  const entries = await readdir(join(dataRoot, LOGS_DIR), { withFileTypes: true }).catch(() => []);
  const logs = entries
    .filter((e) => e.isFile() && LOG_NAME.test(e.name))
    .map((e) => `${LOGS_DIR}/${e.name}`)
    .sort()
    .reverse();
  return { paths: [MEMORY_FILE, ...logs.slice(0, MAX_LOGS)], leftOut: Math.max(0, logs.length - MAX_LOGS) };
}

function forget(path: string): void {
  for (const id of files.get(path)?.ids ?? []) {
    index.remove(id);
    passages.delete(id);
  }
  files.delete(path);
}

/** Lines past the cap are cut: a passage points at one fact. */
const shortLines = (text: string) => text.split("\n").map((line) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} […]` : line)).join("\n");

async function sync(dataRoot: string): Promise<{ files: number; leftOut: string | null }> {
  if (root !== dataRoot) {
    for (const path of [...files.keys()]) forget(path);
    root = dataRoot;
  }
  const { paths, leftOut: tooMany } = await memoryFiles(dataRoot);
  const wanted = new Set<string>();
  let total = 0;
  let overBytes = 0;
  for (const path of paths) {
    const info = await lstat(join(dataRoot, path)).catch(() => null);
    if (!info?.isFile()) continue;
    const size = Math.min(info.size, MAX_FILE_BYTES);
    if (total + size > MAX_TOTAL_BYTES) {
      overBytes++;
      continue;
    }
    total += size;
    wanted.add(path);
    const stamp = `${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.ino}`;
    if (files.get(path)?.stamp === stamp) continue;
    forget(path);
    let text: string;
    try {
      // Read as the server reads the data folders: no link followed, a regular file only, capped.
      text = (await readConfinedText(dataRoot, path, MAX_FILE_BYTES)).content;
    } catch (err) {
      if (isUnreadable(err)) continue;
      throw err;
    }
    const ids: number[] = [];
    for (const chunk of chunkText(shortLines(text), 1, PASSAGE)) {
      const passage = chunk.text.trim();
      if (!passage) continue;
      const id = nextId++;
      passages.set(id, { path, line: chunk.line, text: passage });
      index.add(id, textTerms(passage));
      ids.push(id);
    }
    files.set(path, { stamp, ids });
  }
  for (const path of [...files.keys()]) if (!wanted.has(path)) forget(path);
  const notes = [
    ...(tooMany ? [`${tooMany} older daily logs (past the newest ${MAX_LOGS})`] : []),
    ...(overBytes ? [`${overBytes} older memory files (past ${MAX_TOTAL_BYTES / 1024 / 1024} MB of memory)`] : []),
  ];
  return { files: wanted.size, leftOut: notes.length ? `not searched: ${notes.join(" and ")}` : null };
}

serveJobs<MemoryJob, MemoryReply>(async (job) => {
  const { files: count, leftOut } = await sync(job.dataRoot);
  const hits: MemoryHit[] = index.search(textTerms(job.query), job.limit).map(({ id, score }) => ({ ...passages.get(id)!, score }));
  return { hits, files: count, leftOut };
});
