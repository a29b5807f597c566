/**
 * The knowledge base: documents under `knowledge/`, chunked, indexed twice (BM25 and vectors),
 * persisted under `storage/knowledge/`, kept in step with the folder incrementally, and searched
 * with hybrid fusion. It never goes dark: without an embedding endpoint it uses the offline
 * embedder, and when the endpoint fails BM25 keeps answering (and says so).
 */
import type { KnowledgeDocument, KnowledgeHit, KnowledgeSearchReply, KnowledgeSourceReply, KnowledgeStatusReply } from "@mini-openclaw/protocol";
import { randomBytes } from "node:crypto";
import { lstat, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { UserError } from "../lib/user-error.js";
import { FolderWatcher } from "../paths/folder-watcher.js";
import { walkConfinedDir } from "../paths/walk-confined-dir.js";
import { Bm25Index, type Scored } from "./bm25-index.js";
import { ChunkStore, type StoredChunk } from "./chunk-store.js";
import { DocumentReader, type DocumentResult } from "./document-reader.js";
import { type Embedder, offlineEmbedder } from "./embedders.js";
import { DEFAULT_ALPHA, fuseScores } from "./fusion.js";
import { KNOWLEDGE_EXTENSIONS, MAX_DOCUMENT_BYTES, pageWord } from "./load-document.js";
import { TEXT_ANALYSIS_VERSION, textTerms } from "./text-terms.js";
import { VectorColumns } from "./vector-columns.js";
import { VectorRows } from "./vector-rows.js";

/** The offline embedder's vectors are sparse and kept by dimension; an endpoint's dense ones as rows. */
type VectorIndex = VectorRows | VectorColumns;

const FORMAT = 1;
/** Without folder events (not started, or polling), a search looks at the folder again when its last look is older than this. */
const FRESH_MS = 1000;
const CANDIDATES = 100;
/** How often the folder is looked at when the system cannot watch it. */
const POLL_MS = 2000;
/** Most documents indexed from knowledge/, and how deep its folders are looked into. */
const MAX_DOCUMENTS = 20_000;
const MAX_FOLDER_DEPTH = 16;
/** One document's reading and chunking time, in the worker, before it is skipped. */
const DOCUMENT_BUDGET_MS = 60_000;
/** Chunks filed into the indexes between two yields to the event loop. */
const FILE_BATCH = 200;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

interface DocumentEntry {
  size: number;
  mtimeMs: number;
  chunks: number[];
  /** Why the document is not indexed (unreadable, too large, too slow); retried when it changes. */
  skipped?: string;
}

interface Manifest {
  format: number;
  embedder: string;
  dims: number;
  /** Chunks stored as chunks.bin; absent in indexes stored before it (chunks.json). */
  chunksLayout?: "binary";
  /** The text analysis the BM25 terms were made with (absent: version 1). */
  textAnalysis?: number;
  /** BM25 stored as bm25.bin; absent in indexes stored before it (bm25.json). */
  bm25Layout?: "binary";
  /** How vectors.* is laid out; absent in indexes stored before columns existed (rows). */
  vectorLayout?: "rows" | "columns";
  nextId: number;
  updatedAt: string | null;
  documents: Record<string, DocumentEntry>;
}

export type { StoredChunk };
export type SearchHit = KnowledgeHit;
export type SearchReply = KnowledgeSearchReply;
export type KnowledgeStatus = KnowledgeStatusReply;

export class KnowledgeBase {
  private readonly folder: string;
  private readonly store: string;
  private manifest: Manifest;
  private chunks = new ChunkStore();
  private bm25 = new Bm25Index();
  private vectors: VectorIndex | null = null;
  private embedError: string | null = null;
  private recovered: string | null = null;
  private loaded: Promise<void> | null = null;
  private syncing: Promise<void> | null = null;
  private lastSync = 0;
  private progress = { running: false, done: 0, total: 0, current: null as string | null };
  private watcher: FolderWatcher | null = null;
  /** Whether the last look found documents added, changed or removed. */
  private lastLookChanged = false;
  /** Walks of knowledge/ so far: with folder events, none happen while nothing changes. */
  private walks = 0;
  private readonly reader = new DocumentReader(DOCUMENT_BUDGET_MS);
  /** Extraction for the Inspector has its own worker (started on first use), one document at a time. */
  private readonly extractor = new DocumentReader(DOCUMENT_BUDGET_MS);
  private extracting: Promise<unknown> = Promise.resolve();
  private closed = false;
  private rebuilding = 0;
  /** The loaded index was changed in memory (its terms made again) and is not stored yet. */
  private unsaved = false;
  /** Entries the last walk refused (links, special files, documents over the size limit). */
  private walkSkipped: Array<{ path: string; reason: string }> = [];
  private walkTruncated: string | null = null;

  constructor(
    private readonly dataRoot: string,
    private embedder: Embedder,
    private readonly log: { warn(obj: object, msg: string): void } = { warn() {} },
  ) {
    this.folder = join(dataRoot, "knowledge");
    this.store = join(dataRoot, "storage", "knowledge");
    this.manifest = this.emptyManifest();
  }

  /** The embedding endpoint, for other searches (memory_search); null when vectors come from the offline embedder. */
  get searchEmbedder(): Embedder | null {
    return this.embedder.mode === "openai" ? this.embedder : null;
  }

  private emptyManifest(): Manifest {
    return { format: FORMAT, embedder: this.embedder.id, dims: 0, textAnalysis: TEXT_ANALYSIS_VERSION, nextId: 1, updatedAt: null, documents: {} };
  }

  /** Loads the persisted index once; an unreadable one is discarded and rebuilt from the documents. */
  load(): Promise<void> {
    this.loaded ??= this.loadFromDisk().catch(async (err) => {
      this.recovered = `the stored index could not be read (${(err as Error).message}); it was rebuilt from the documents`;
      this.log.warn({ err }, "knowledge index unreadable; rebuilding");
      this.reset();
      await rm(this.store, { recursive: true, force: true });
    });
    return this.loaded;
  }

  private reset() {
    this.manifest = this.emptyManifest();
    this.chunks = new ChunkStore();
    this.bm25 = new Bm25Index();
    this.vectors = null;
  }

  private async loadFromDisk(): Promise<void> {
    let manifestText: string;
    try {
      manifestText = await readFile(join(this.store, "manifest.json"), "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return; // nothing stored yet
      throw err;
    }
    const manifest = JSON.parse(manifestText) as Manifest;
    if (manifest.format !== FORMAT) throw new Error(`unknown index format ${manifest.format}`);
    // The files are read at once, so reading one overlaps with decoding another.
    const read = (name: string) => readFile(join(this.store, name));
    const vectorsMatch = manifest.embedder === this.embedder.id && manifest.dims > 0;
    const [chunkBytes, bm25Bytes, vectorFiles] = await Promise.all([
      read(manifest.chunksLayout === "binary" ? "chunks.bin" : "chunks.json"),
      read(manifest.bm25Layout === "binary" ? "bm25.bin" : "bm25.json"),
      !vectorsMatch ? null : manifest.vectorLayout === "columns" ? Promise.all([read("vectors.cols")]) : Promise.all([read("vectors.ids"), read("vectors.f32")]),
    ]);
    let chunks: ChunkStore;
    if (manifest.chunksLayout === "binary") chunks = ChunkStore.fromBuffer(chunkBytes);
    else {
      chunks = new ChunkStore();
      for (const chunk of JSON.parse(chunkBytes.toString("utf8")) as StoredChunk[]) chunks.set(chunk);
    }
    let bm25 = manifest.bm25Layout === "binary" ? Bm25Index.fromBuffer(bm25Bytes) : Bm25Index.fromJSON(JSON.parse(bm25Bytes.toString("utf8")));
    if (bm25.size !== chunks.size) throw new Error("the BM25 index does not match the chunks");
    if ((manifest.textAnalysis ?? 1) !== TEXT_ANALYSIS_VERSION) {
      // Terms made by an earlier text analysis: made again from the stored chunks (no document is
      // read again, no vector recomputed), a slice at a time, and stored at the next sync.
      bm25 = new Bm25Index();
      let n = 0;
      for (const id of chunks.ids()) {
        bm25.add(id, textTerms(chunks.get(id)!.text));
        if (++n % 500 === 0) await yieldToEventLoop();
      }
      manifest.textAnalysis = TEXT_ANALYSIS_VERSION;
      this.unsaved = true;
    }
    this.manifest = manifest;
    this.chunks = chunks;
    this.bm25 = bm25;
    if (vectorFiles) {
      if (vectorFiles.length === 1) this.vectors = VectorColumns.fromBuffer(vectorFiles[0]);
      else {
        const stored = VectorRows.fromBuffers(manifest.dims, vectorFiles[0], vectorFiles[1]);
        this.vectors = this.embedder.mode === "offline" ? VectorColumns.fromRows(stored) : stored;
      }
    } else {
      // Another embedder made these vectors: they are recomputed at the next sync.
      this.manifest.embedder = this.embedder.id;
      this.manifest.dims = 0;
    }
  }

  private async persist(): Promise<void> {
    await mkdir(this.store, { recursive: true });
    const write = async (name: string, data: string | Buffer) => {
      const temp = join(this.store, `.${name}.${randomBytes(4).toString("hex")}.tmp`);
      await writeFile(temp, data);
      await rename(temp, join(this.store, name));
    };
    await write("chunks.bin", await this.chunks.toBuffer());
    this.manifest.chunksLayout = "binary";
    await write("bm25.bin", this.bm25.toBuffer());
    this.manifest.bm25Layout = "binary";
    if (this.vectors instanceof VectorColumns) {
      await write("vectors.cols", this.vectors.toBuffer());
      this.manifest.vectorLayout = "columns";
    } else if (this.vectors) {
      const { ids, vectors } = this.vectors.toBuffers();
      await write("vectors.ids", ids);
      await write("vectors.f32", vectors);
      this.manifest.vectorLayout = "rows";
    }
    // The manifest goes last: it only ever describes files that are complete.
    await write("manifest.json", JSON.stringify(this.manifest));
    // Vectors stored in the other layout before (an index from an older version) are not read again.
    const stale = ["chunks.json", "bm25.json", ...(this.manifest.vectorLayout === "columns" ? ["vectors.ids", "vectors.f32"] : ["vectors.cols"])];
    for (const name of stale) await rm(join(this.store, name), { force: true });
  }

  /** The documents under knowledge/, without following links; oversized ones are noted, not listed. */
  private async listDocuments(): Promise<Map<string, { size: number; mtimeMs: number }>> {
    const walk = await walkConfinedDir(this.dataRoot, "knowledge", {
      maxDepth: MAX_FOLDER_DEPTH,
      maxFiles: MAX_DOCUMENTS,
      accept: (name) => KNOWLEDGE_EXTENSIONS.test(name),
    });
    this.walks++;
    void this.watcher?.track(walk.dirs).catch(() => {});
    const found = new Map<string, { size: number; mtimeMs: number }>();
    const skipped = [...walk.skipped];
    for (const file of walk.files) {
      if (file.size > MAX_DOCUMENT_BYTES) skipped.push({ path: file.path, reason: `${file.size} bytes, over the ${MAX_DOCUMENT_BYTES}-byte limit for a document` });
      else found.set(file.path, { size: file.size, mtimeMs: file.mtimeMs });
    }
    this.walkSkipped = skipped;
    this.walkTruncated = walk.truncated;
    return found;
  }

  /** Brings the index in step with the folder: new and changed documents indexed, deleted ones removed. */
  sync(): Promise<void> {
    this.syncing ??= this.syncNow()
      .then((changed) => {
        this.lastLookChanged = changed;
      })
      .finally(() => {
        this.syncing = null;
        this.lastSync = Date.now();
      });
    return this.syncing;
  }

  /**
   * The folder watcher's look: one that starts after the change it was told of (a sync already
   * under way, started by a search, may have passed it). True when it found changes, so the watcher
   * looks again until a look finds none (a burst of writes can outrun the kernel's event queue).
   */
  private async lookAfterChange(): Promise<boolean> {
    await this.syncing?.catch(() => {});
    await this.sync().catch((err) => this.log.warn({ err }, "knowledge sync failed"));
    return this.lastLookChanged;
  }

  private removeDocument(path: string) {
    for (const id of this.manifest.documents[path]?.chunks ?? []) {
      this.chunks.delete(id);
      this.bm25.remove(id);
      this.vectors?.remove(id);
    }
    delete this.manifest.documents[path];
  }

  /** One look at the folder; true when documents were added, changed or removed. */
  private async syncNow(): Promise<boolean> {
    await this.load();
    const onDisk = await this.listDocuments();
    let changed = false;
    for (const path of Object.keys(this.manifest.documents)) {
      if (!onDisk.has(path)) {
        this.removeDocument(path);
        changed = true;
      }
    }
    const todo = [...onDisk].filter(([path, info]) => {
      const known = this.manifest.documents[path];
      return !known || known.size !== info.size || known.mtimeMs !== info.mtimeMs;
    });
    // A look that finds nothing to read keeps the last round's figures (what the view shows as done).
    if (todo.length > 0) this.progress = { running: true, done: 0, total: todo.length, current: null };
    for (const [path, info] of todo) {
      if (this.closed) break;
      this.progress.current = path;
      this.removeDocument(path);
      const result = await this.reader.read({
        dataRoot: this.dataRoot,
        path,
        maxBytes: MAX_DOCUMENT_BYTES,
        offlineVectors: this.embedder.id === offlineEmbedder.id,
      });
      if (this.closed) break;
      const entry: DocumentEntry = { size: info.size, mtimeMs: info.mtimeMs, chunks: [] };
      if (result.ok) await this.fileChunks(path, result, entry.chunks);
      else {
        entry.skipped = result.reason;
        this.log.warn({ path, reason: result.reason }, "knowledge document skipped");
      }
      this.manifest.documents[path] = entry;
      this.progress.done++;
      changed = true;
      await yieldToEventLoop();
    }
    const documentsChanged = changed;
    if (await this.embedMissing()) changed = true;
    this.progress = { ...this.progress, running: false, current: null };
    if (changed || this.unsaved) {
      if (changed) this.manifest.updatedAt = new Date().toISOString();
      this.unsaved = false;
      await this.persist();
    }
    return documentsChanged;
  }

  /** Files one document's chunks (read and chunked by the worker) into the indexes, yielding as it goes. */
  private async fileChunks(path: string, read: Extract<DocumentResult, { ok: true }>, ids: number[]): Promise<void> {
    for (let i = 0; i < read.chunks.length; i++) {
      const piece = read.chunks[i];
      const id = this.manifest.nextId++;
      ids.push(id);
      this.chunks.set({ id, path, index: piece.index, line: piece.line, text: piece.text });
      this.bm25.add(id, piece.terms === "" ? [] : piece.terms.split(" "));
      if (read.vectors) {
        this.vectors ??= this.newVectorIndex(read.dims, read.chunks.length);
        this.manifest.dims = read.dims;
        this.manifest.embedder = this.embedder.id;
        this.vectors.set(id, read.vectors.subarray(i * read.dims, (i + 1) * read.dims));
      }
      if (i % FILE_BATCH === FILE_BATCH - 1) await yieldToEventLoop();
    }
  }

  private newVectorIndex(dims: number, expected: number): VectorIndex {
    return this.embedder.mode === "offline" ? new VectorColumns(dims) : new VectorRows(dims, Math.max(1024, expected));
  }

  /** Embeds every chunk that has no vector yet. A failing endpoint leaves them for the next sync. */
  private async embedMissing(): Promise<boolean> {
    const missing = [...this.chunks.ids()].filter((id) => !this.vectors?.has(id)).map((id) => this.chunks.get(id)!);
    if (missing.length === 0) return false;
    try {
      // Small batches with a yield between them: the offline embedder computes on this thread.
      const batch = this.embedder.mode === "offline" ? 32 : 256;
      for (let i = 0; i < missing.length; i += batch) {
        if (i > 0) await yieldToEventLoop();
        const slice = missing.slice(i, i + batch);
        const vectors = await this.embedder.embedDocuments(slice.map((c) => c.text));
        if (!this.vectors) {
          this.vectors = this.newVectorIndex(vectors[0].length, missing.length);
          this.manifest.dims = vectors[0].length;
          this.manifest.embedder = this.embedder.id;
        }
        slice.forEach((c, j) => this.vectors!.set(c.id, vectors[j]));
      }
      this.embedError = null;
    } catch (err) {
      this.embedError = (err as Error).message;
      this.log.warn({ err }, "embedding failed; BM25 keeps answering");
    }
    return true;
  }

  /**
   * Switches to another embedder (the user set up a new endpoint): the vectors of the old one mean
   * nothing to it, so they are dropped and every chunk is embedded again by a sync started now; BM25
   * answers meanwhile.
   */
  async useEmbedder(embedder: Embedder): Promise<void> {
    if (embedder.id === this.embedder.id) return;
    await this.load();
    await this.syncing?.catch(() => {});
    this.embedder = embedder;
    this.embedError = null;
    this.vectors = null;
    this.manifest.embedder = embedder.id;
    this.manifest.dims = 0;
    if (!this.closed) void this.sync().catch((err) => this.log.warn({ err }, "knowledge sync failed"));
  }

  /** Indexes what is there now, then follows the folder's changes by its events. */
  start(): void {
    this.watcher ??= new FolderWatcher(this.dataRoot, { rootNames: ["knowledge"], pollMs: POLL_MS, onChange: () => this.lookAfterChange() });
    this.watcher.request();
  }

  /** Stops watching and waits for a running sync, so nothing writes to storage/ after the server stopped. */
  async close(): Promise<void> {
    this.watcher?.close();
    this.watcher = null;
    this.closed = true;
    await this.reader.close();
    await this.extractor.close();
    await this.syncing?.catch(() => {});
  }

  /**
   * Drops the stored index and builds it again from the documents. The status says "running" from
   * the call to the end (a sync already under way, which it waits for, must not say otherwise).
   */
  async rebuild(): Promise<void> {
    this.rebuilding++;
    try {
      await this.load();
      await this.syncing?.catch(() => {});
      this.reset();
      await rm(this.store, { recursive: true, force: true });
      await this.sync();
    } finally {
      this.rebuilding--;
    }
  }

  async search(query: string, k: number, options: { sync?: boolean } = {}): Promise<SearchReply> {
    if (options.sync !== false && this.mustLook()) await this.sync();
    else await this.load();
    const terms = textTerms(query);
    const lexical = this.bm25.search(terms, CANDIDATES);
    let vector: Scored[] = [];
    let note = this.embedError ? `vector search unavailable (${this.embedError}); results are from BM25 alone` : null;
    if (this.vectors && this.vectors.size > 0) {
      try {
        vector = this.vectors.search(await this.embedder.embedQuery(query, (term) => this.bm25.idf(term)), CANDIDATES);
      } catch (err) {
        note = `vector search unavailable (${(err as Error).message}); results are from BM25 alone`;
      }
    }
    const fused = vector.length > 0 ? fuseScores(lexical, vector, DEFAULT_ALPHA) : lexical;
    const lexicalById = new Map(lexical.map((s) => [s.id, s.score]));
    const vectorById = new Map(vector.map((s) => [s.id, s.score]));
    // Documents deleted since the last look at the folder are never returned.
    const candidates = fused.slice(0, k * 3).map(({ id, score }) => ({ chunk: this.chunks.get(id), id, score }));
    const paths = [...new Set(candidates.flatMap((c) => (c.chunk ? [c.chunk.path] : [])))];
    const present = new Set(
      (await Promise.all(paths.map((p) => lstat(join(this.dataRoot, p)).then((info) => (info.isFile() ? p : null), () => null)))).filter((p): p is string => p !== null),
    );
    const results: SearchHit[] = [];
    for (const { chunk, id, score } of candidates) {
      if (results.length >= k) break;
      if (!chunk || !present.has(chunk.path)) continue;
      results.push({
        source: chunk.path,
        chunk: chunk.index,
        line: chunk.line,
        score: Number(score.toFixed(4)),
        bm25: lexicalById.has(id) ? Number(lexicalById.get(id)!.toFixed(4)) : null,
        vector: vectorById.has(id) ? Number(vectorById.get(id)!.toFixed(4)) : null,
        text: chunk.text,
      });
    }
    return { mode: vector.length > 0 ? "hybrid" : "bm25", embedder: this.embedder.label, note, results };
  }

  /**
   * A document's text as the indexer reads it, for a citation to open: PDF, Word and the other
   * formats extracted off the server's thread (a PDF by page). `path` is a clean knowledge/ path.
   */
  async source(path: string): Promise<KnowledgeSourceReply> {
    if (!path.startsWith("knowledge/") || !KNOWLEDGE_EXTENSIONS.test(path)) {
      throw new UserError(400, `Not a knowledge document: ${path} (knowledge/ files of the kinds the index reads).`);
    }
    const info = await lstat(join(this.dataRoot, path)).catch(() => null);
    if (!info?.isFile()) throw new UserError(404, `No such document: ${path}.`);
    const job = this.extracting.then(() => this.extractor.extract({ dataRoot: this.dataRoot, path, maxBytes: MAX_DOCUMENT_BYTES }));
    this.extracting = job.catch(() => {});
    const result = await job;
    if (!result.ok) throw new UserError(422, `${path} could not be read: ${result.reason}`);
    return { path, text: result.text, pages: result.pages, page_word: pageWord(path) };
  }

  /** Whether a search must look at the folder first: a change seen and not yet indexed, or no events to go by. */
  private mustLook(): boolean {
    if (this.watcher?.state.mode === "events") return this.watcher.pending || this.syncing !== null;
    return Date.now() - this.lastSync > FRESH_MS;
  }

  /** Every document the index knows (indexed, or failed with the reason) and those the walk refused. */
  documents(): KnowledgeDocument[] {
    const known: KnowledgeDocument[] = Object.entries(this.manifest.documents).map(([path, doc]) =>
      doc.skipped ? { path, state: "failed", chunks: 0, bytes: doc.size, reason: doc.skipped } : { path, state: "indexed", chunks: doc.chunks.length, bytes: doc.size },
    );
    const refused: KnowledgeDocument[] = this.walkSkipped.map(({ path, reason }) => ({ path, state: "skipped", chunks: 0, bytes: null, reason }));
    return [...known, ...refused].sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  }

  status(): KnowledgeStatus {
    const hybrid = this.embedError === null;
    return {
      documents: Object.keys(this.manifest.documents).length,
      chunks: this.chunks.size,
      mode: hybrid ? "hybrid" : "bm25",
      embedder: { mode: this.embedder.mode, label: this.embedder.label, error: this.embedError },
      last_update: this.manifest.updatedAt,
      indexing: { ...this.progress, running: this.progress.running || this.rebuilding > 0 },
      skipped: [
        ...this.walkSkipped,
        ...Object.entries(this.manifest.documents).flatMap(([path, doc]) => (doc.skipped ? [{ path, reason: doc.skipped }] : [])),
      ],
      truncated: this.walkTruncated,
      recovered: this.recovered,
      watch: this.watcher ? { ...this.watcher.state, walks: this.walks } : { mode: "off", folders: 0, reason: null, walks: this.walks },
    };
  }
}
