/**
 * Opening the embedded (SQLite) knowledge store at start: read at once when it is already at this
 * text analysis and embedder; otherwise the indexer's worker brings it there (or makes it), and a
 * store that cannot be read, or an earlier version's files, are set aside and rebuilt from the
 * documents, which the status then says (`recovered`).
 */
import { lstat, mkdir, readdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { VectorSpace } from "./index-store.js";
import { SqliteIndexStore } from "./sqlite-index-store.js";
import { TEXT_ANALYSIS_VERSION } from "./text-terms.js";

/** The files an earlier version stored its index in (taken over: rebuilt). */
const EARLIER_LAYOUT = ["manifest.json", "chunks.bin", "chunks.json", "bm25.bin", "bm25.json", "vectors.cols", "vectors.ids", "vectors.f32"];

export interface EmbeddedStoreOpening {
  /** The database file. */
  file: string;
  space: VectorSpace;
  /** The worker's prepare: the store brought to this text analysis and embedder, or made. */
  prepare: () => Promise<{ ok: boolean; reason?: string }>;
  closed: () => boolean;
  log: { warn(obj: object, msg: string): void };
}

export async function openEmbeddedStore(opening: EmbeddedStoreOpening): Promise<{ store: SqliteIndexStore; recovered: string | null }> {
  const dir = dirname(opening.file);
  await mkdir(dir, { recursive: true });
  const earlier = (await readdir(dir).catch(() => [] as string[])).filter((name) => EARLIER_LAYOUT.includes(name));
  if (earlier.length > 0) {
    for (const name of earlier) await rm(join(dir, name), { force: true });
    const store = await prepareInWorker(opening);
    return { store: store.store, recovered: store.recovered ?? "the index an earlier version stored is taken over: every document is indexed again into the new store" };
  }
  const ready = await openIfPrepared(opening);
  return ready ? { store: ready, recovered: null } : prepareInWorker(opening);
}

/** The worker prepares the store, then it is opened for reading; one that cannot be read is set aside and made again. */
async function prepareInWorker({ file, prepare, closed, log }: EmbeddedStoreOpening): Promise<{ store: SqliteIndexStore; recovered: string | null }> {
  let recovered: string | null = null;
  let prepared = await prepare();
  if (!prepared.ok && !closed()) {
    // An unreadable database (damaged, not SQLite): set aside, and built again from the documents.
    log.warn({ reason: prepared.reason }, "knowledge store unreadable; rebuilding");
    recovered = `the stored index could not be read (${prepared.reason}); it was rebuilt from the documents`;
    for (const suffix of ["", "-wal", "-shm"]) await rm(`${file}${suffix}`, { force: true });
    prepared = await prepare();
  }
  if (!prepared.ok) throw new Error(`the knowledge store could not be opened (${prepared.reason})`);
  return { store: SqliteIndexStore.open(file), recovered };
}

/**
 * The store, when it is already at this text analysis and embedder: read at once. Otherwise (none
 * yet, another version, another embedder, damaged) null, and the worker prepares it. On a restart
 * this keeps the worker's start, which loads every document reader, off the way to the first search.
 */
async function openIfPrepared({ file, space }: EmbeddedStoreOpening): Promise<SqliteIndexStore | null> {
  const info = await lstat(file).catch(() => null);
  if (!info?.isFile()) return null;
  let store: SqliteIndexStore | null = null;
  try {
    store = SqliteIndexStore.open(file);
    if (store.preparedFor(TEXT_ANALYSIS_VERSION, space)) return store;
  } catch {
    // Damaged or not SQLite: the worker's prepare says so and the store is rebuilt.
  }
  store?.close();
  return null;
}
