/**
 * The knowledge base: documents under `knowledge/`, chunked and indexed (BM25 terms and vectors) in
 * an SQLite store under `storage/knowledge/` or a PostgreSQL server's collection, kept in step with the folder one document at a time,
 * and searched with hybrid fusion (search-committed.ts). The indexing (reading,
 * chunking, embedding offline, writing) happens in a worker thread, so the server never waits for
 * it: a search answers at once from what is committed, and says when indexing is under way. It never
 * goes dark: without an embedding endpoint it uses the offline embedder, and when the endpoint
 * fails BM25 keeps answering (and says so).
 *
 * A server store may be shared: the workbench holding the collection's lease indexes it, the others
 * search what is committed and show who indexes and how far, and take over when its heartbeat stops.
 * An unreachable server fails knowledge searches (naming the store) and is tried again with backoff.
 */
import type { KnowledgeDocument, KnowledgeRemoveReply, KnowledgeSearchReply, KnowledgeSourceReply, KnowledgeStatusReply, KnowledgeUploadReply } from "@mini-openclaw/protocol";
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { KNOWLEDGE_INDEX_FILE } from "../config/data-root-layout.js";
import type { KnowledgeServerConfig } from "../config/config.js";
import { UserError } from "../lib/user-error.js";
import { FolderWatcher } from "../paths/folder-watcher.js";
import type { Embedder } from "./embedders.js";
import { IndexWorker } from "./index-worker.js";
import type { DocumentRow, IndexStore, StoredChunk, VectorSpace } from "./index-store.js";
import { newLeaseHolder } from "./index-lease.js";
import { openEmbeddedStore } from "./open-embedded-store.js";
import { listKnowledgeFolder } from "./knowledge-folder.js";
import { fillMissingVectors } from "./fill-vectors.js";
import { PostgresIndexStore } from "./postgres-index-store.js";
import { SharedCollection } from "./shared-collection.js";
import { defaultCollection, describeStore, type StoreLocation } from "./store-location.js";
import { addKnowledgeFile, knowledgePath, restoreKnowledgeFile, trashKnowledgeFile } from "./knowledge-files.js";
import type { KnowledgeVectorStore } from "./knowledge-vector-store.js";
import { IndexedDocuments } from "./indexed-documents.js";
import { searchCommitted } from "./search-committed.js";
import { KNOWLEDGE_EXTENSIONS, MAX_DOCUMENT_BYTES, pageWord } from "./document-kinds.js";
import { TEXT_ANALYSIS_VERSION } from "./text-terms.js";

/** Without folder events (not started, or polling), a search syncs with the folder again when its last sync is older than this. */
const FRESH_MS = 1000;
/** How long a search waits for a sync it started (a change just written): past it, it answers from what is committed. */
const SYNC_WAIT_MS = 1000;
/** How often the folder is looked at when the system cannot watch it. */
const POLL_MS = 2000;
/** One document's reading and chunking time, in the worker, before it is skipped. */
const DOCUMENT_BUDGET_MS = 60_000;
/** How long an upload waits for its document to be indexed before it answers "pending". */
const UPLOAD_WAIT_MS = 10_000;

export type { StoredChunk };
export type SearchReply = KnowledgeSearchReply;
export type KnowledgeStatus = KnowledgeStatusReply;

/** The vector space an embedder's vectors are stored in. */
function spaceOf(embedder: Embedder): VectorSpace {
  return { embedder: embedder.id, format: embedder.mode === "offline" ? "sparse-i8" : "f32" };
}

export class KnowledgeBase {
  private readonly location: StoreLocation;
  private reader: IndexStore | null = null;
  /** A server store's collection: its lease, who indexes it, whether it is reachable (null: the embedded store). */
  private readonly shared: SharedCollection | null;
  /** Whether this workbench writes the index: always the embedded store; a server store's while it holds the lease. */
  private writer: boolean;
  private leaseTimer: NodeJS.Timeout | null = null;
  private ticking = false;
  /** The last sync failed on the server store: the next heartbeat that reaches it syncs again (and resumes). */
  private syncFailed = false;
  private vectorStore: KnowledgeVectorStore | null = null;
  /** The documents table as the last commits left it (the worker reports each one). */
  private readonly docs = new IndexedDocuments();
  /** Chunks may lack vectors (an endpoint embeds after indexing; a switch of embedder dropped them). */
  private vectorsPending = true;
  private embedError: string | null = null;
  private recovered: string | null = null;
  private loaded: Promise<void> | null = null;
  private syncing: Promise<void> | null = null;
  private lastSync = 0;
  private progress = { running: false, done: 0, total: 0, current: null as string | null };
  private watcher: FolderWatcher | null = null;
  /** Whether the last sync found documents added, changed or removed. */
  private lastSyncChanged = false;
  /** Walks of knowledge/ so far: with folder events, none happen while nothing changes. */
  private walks = 0;
  private readonly worker = new IndexWorker(DOCUMENT_BUDGET_MS);
  /** Extraction for the Inspector has its own worker (started on first use), one document at a time. */
  private readonly extractor = new IndexWorker(DOCUMENT_BUDGET_MS);
  private closed = false;
  private rebuilding = 0;
  private changeTimer: NodeJS.Timeout | null = null;
  /** Entries the last walk refused (links, special files, documents over the size limit). */
  private walkSkipped: Array<{ path: string; reason: string }> = [];
  private walkTruncated: string | null = null;

  constructor(
    private readonly dataRoot: string,
    private embedder: Embedder,
    private readonly log: { warn(obj: object, msg: string): void } = { warn() {} },
    /** The status or the documents changed (progress, a document in or out): pages showing them read them again. */
    private readonly onChange: () => void = () => {},
    private readonly server: KnowledgeServerConfig | null = null,
  ) {
    this.location = server
      ? { kind: "postgres", url: server.url, collection: server.collection ?? defaultCollection(join(dataRoot, "knowledge")), holder: newLeaseHolder() }
      : { kind: "sqlite", file: join(dataRoot, KNOWLEDGE_INDEX_FILE) };
    this.writer = server === null;
    this.shared = this.location.kind === "postgres" ? new SharedCollection(this.location, server!.leaseMs, dataRoot, log) : null;
  }

  /** The embedding endpoint, for other searches (memory_search); null when vectors come from the offline embedder. */
  get searchEmbedder(): Embedder | null {
    return this.embedder.mode === "openai" ? this.embedder : null;
  }

  /**
   * The store as LlamaIndex sees it (its retrievers and query engines work over it). LlamaIndex is
   * loaded on this first call, not at start: nothing of the workbench's own goes through it.
   */
  async llamaIndexStore(): Promise<KnowledgeVectorStore> {
    if (!this.vectorStore) {
      const { KnowledgeVectorStore } = await import("./knowledge-vector-store.js");
      this.vectorStore ??= new KnowledgeVectorStore(
        () => this.openReader(),
        () => this.embedder,
      );
    }
    return this.vectorStore;
  }

  private openReader(): IndexStore {
    if (!this.reader) throw new Error("the knowledge store is not open yet");
    return this.reader;
  }

  /** Opens the store once: an index an earlier version stored is taken over (rebuilt from the documents). */
  load(): Promise<void> {
    this.loaded ??= this.open().catch((err: Error) => {
      // A server that could not be reached (or refused) is tried again by the next call.
      this.loaded = null;
      throw err;
    });
    return this.loaded;
  }

  private async open(): Promise<void> {
    if (this.location.kind === "postgres") return this.openServer(this.location);
    const opened = await openEmbeddedStore({ file: this.location.file, space: spaceOf(this.embedder), prepare: () => this.prepare(), closed: () => this.closed, log: this.log });
    this.reader = opened.store;
    this.recovered = opened.recovered;
    this.vectorsPending = await this.reader.vectorsMayBeMissing();
    await this.refreshDocuments();
  }

  /** The server store: connected (its schema made or migrated), the lease taken if no one holds it. */
  private async openServer(location: Extract<StoreLocation, { kind: "postgres" }>): Promise<void> {
    const store = await PostgresIndexStore.open({ url: location.url, collection: location.collection, holder: null });
    try {
      this.shared!.attach(store.pool);
      this.reader = store;
      await this.holdLease(this.shared!);
      this.vectorsPending = await store.vectorsMayBeMissing();
      await this.refreshDocuments();
    } catch (err) {
      this.reader = null;
      this.shared!.detach();
      await store.close();
      throw err;
    }
  }

  /**
   * Renews the lease, or takes it when it is free or its holder's heartbeat stopped (then the
   * collection is brought to this text analysis and embedder, and indexing starts); reads who indexes.
   */
  private async holdLease(shared: SharedCollection): Promise<void> {
    const progress = { ...this.progress, running: this.progress.running || this.rebuilding > 0 };
    const held = await shared.beat(this.writer, progress);
    if (held && !this.writer) {
      const prepared = await this.prepare();
      if (!prepared.ok) throw new Error(prepared.reason);
      this.writer = true;
      this.vectorsPending = await this.openReader().vectorsMayBeMissing();
      await this.refreshDocuments();
      // Indexing starts (or resumes: the documents table says what is done).
      if (this.watcher) void this.sync().catch((err) => this.log.warn({ err: (err as Error).message }, "knowledge sync failed"));
    } else if (!held && this.writer) {
      this.writer = false;
      shared.lost();
    }
    await shared.readIndexer();
    if (!this.writer) await this.refreshDocumentsIfChanged();
  }

  /** The heartbeat of a server store: keeps or takes the lease, reconnects with backoff, resumes a failed sync. */
  private async tick(): Promise<void> {
    const shared = this.shared;
    if (!shared || this.ticking || this.closed || !shared.due()) return;
    this.ticking = true;
    try {
      await this.load();
      await this.holdLease(shared);
      if (shared.reached()) this.changed();
      if (this.writer && this.syncFailed && this.syncing === null) void this.sync().catch(() => {});
    } catch (err) {
      this.storeDown(err as Error);
    } finally {
      this.ticking = false;
    }
  }

  /** The server store failed: said in the status, tried again after a wait that doubles. */
  private storeDown(err: Error): void {
    if (!this.shared || this.closed) return;
    this.shared.failed(err);
    this.changed();
  }

  /** The worker brings the store to this text analysis and the embedder of the moment (or makes it). */
  private prepare() {
    return this.worker.run({ kind: "prepare", store: this.location, textAnalysis: TEXT_ANALYSIS_VERSION, space: spaceOf(this.embedder) });
  }

  /** Tells of a change, at most five times a second while indexing runs (the last one always). */
  private changed(): void {
    if (this.changeTimer || this.closed) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = null;
      if (!this.closed) this.onChange();
    }, 200);
    this.changeTimer.unref();
  }

  /** The documents table read again (at open, and after a rebuild). */
  private async refreshDocuments(): Promise<void> {
    this.changed();
    await this.docs.read(this.openReader());
  }

  /** The documents table read again when another workbench has written since the last read. */
  private async refreshDocumentsIfChanged(): Promise<void> {
    if (await this.docs.changedIn(this.openReader())) await this.refreshDocuments();
  }

  private committed(row: DocumentRow | { path: string; removed: true }): void {
    this.changed();
    this.docs.committed(row);
  }

  /** The documents under knowledge/ (knowledge-folder.ts); the folders walked are watched. */
  private async listDocuments(): Promise<Map<string, { size: number; mtimeMs: number }>> {
    const folder = await listKnowledgeFolder(this.dataRoot);
    this.walks++;
    void this.watcher?.track(folder.dirs).catch(() => {});
    this.walkSkipped = folder.skipped;
    this.walkTruncated = folder.truncated;
    return folder.found;
  }

  /** Brings the index in step with the folder: new and changed documents indexed, deleted ones removed. */
  sync(): Promise<void> {
    // Running means documents or vectors are being written: from start() (the first walk included), and for a later
    // sync once it has found work. A sync that only walks and finds nothing keeps the last round's figures and leaves
    // searches saying the index is complete (the watcher syncs once more after every sync that changed something).
    this.syncing ??= this.syncNow()
      .then((changed) => {
        this.lastSyncChanged = changed;
        this.syncFailed = false;
      })
      .catch((err: Error) => {
        this.syncFailed = true;
        this.storeDown(err);
        throw err;
      })
      .finally(() => {
        this.syncing = null;
        this.lastSync = Date.now();
        this.progress = { ...this.progress, running: false, current: null };
        this.changed();
      });
    return this.syncing;
  }

  /**
   * The folder watcher's sync: one that starts after the change it was told of (a sync already
   * under way, started by a search, may have passed it). True when it found changes, so the watcher
   * syncs again until a sync finds none (a burst of writes can outrun the kernel's event queue).
   */
  private async syncAfterChange(): Promise<boolean> {
    await this.syncing?.catch(() => {});
    await this.sync().catch((err) => this.log.warn({ err }, "knowledge sync failed"));
    return this.lastSyncChanged;
  }

  /** One sync with the folder; true when documents were added, changed or removed. */
  private async syncNow(): Promise<boolean> {
    await this.load();
    // Another workbench indexes the shared collection: this one reads what it committed.
    if (!this.writer) {
      await this.refreshDocumentsIfChanged();
      return false;
    }
    const onDisk = await this.listDocuments();
    let changed = false;
    const gone = this.docs.paths().filter((path) => !onDisk.has(path));
    if (gone.length > 0) {
      const reply = await this.worker.run({ kind: "remove", store: this.location, paths: gone });
      if (!reply.ok) throw new Error(`documents could not be removed from the index (${reply.reason})`);
      for (const path of gone) this.committed({ path, removed: true });
      changed = true;
    }
    const todo = [...onDisk].filter(([path, info]) => {
      const known = this.docs.get(path);
      return !known || known.size !== info.size || known.mtimeMs !== info.mtimeMs;
    });
    if (todo.length > 0) this.progress = { running: true, done: 0, total: todo.length, current: null };
    const offline = this.embedder.mode === "offline" ? spaceOf(this.embedder) : null;
    for (const [path, info] of todo) {
      if (this.closed) break;
      this.progress.current = path;
      this.changed();
      const doc = { path, size: info.size, mtimeMs: info.mtimeMs };
      const reply = await this.worker.run({ kind: "index", store: this.location, dataRoot: this.dataRoot, ...doc, maxBytes: MAX_DOCUMENT_BYTES, offline });
      if (this.closed) break;
      if (reply.ok) this.committed({ ...doc, chunks: reply.chunks ?? 0, reason: null });
      // The server store failed (unreachable, the lease passed on): nothing was written; the next sync resumes here.
      else if (reply.storeDown) throw new Error(reply.reason);
      else {
        this.log.warn({ path, reason: reply.reason }, "knowledge document skipped");
        // Stopped from outside (over its time budget): the failure is recorded by a fresh worker.
        const recorded = reply.recorded || (await this.worker.run({ kind: "fail", store: this.location, ...doc, reason: reply.reason })).ok;
        if (recorded) this.committed({ ...doc, chunks: 0, reason: reply.reason });
      }
      if (!offline) this.vectorsPending = true;
      this.progress.done++;
      changed = true;
    }
    await this.embedMissing();
    return changed;
  }

  /** Vectors for chunks that have none: the offline embedder's in the worker, an endpoint's from here. A failing endpoint leaves them for the next sync. */
  private async embedMissing(): Promise<void> {
    if (!this.vectorsPending) return;
    this.progress.running = true;
    try {
      await fillMissingVectors({ worker: this.worker, location: this.location, embedder: this.embedder, space: spaceOf(this.embedder), reader: this.openReader(), closed: () => this.closed });
      if (this.closed) return;
      this.vectorsPending = false;
      this.embedError = null;
    } catch (err) {
      this.embedError = (err as Error).message;
      this.changed();
      this.log.warn({ err }, "embedding failed; BM25 keeps answering");
    }
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
    this.changed();
    if (this.writer) await this.prepare();
    this.vectorsPending = true;
    if (!this.closed) void this.sync().catch((err) => this.log.warn({ err }, "knowledge sync failed"));
  }

  /** Indexes what is there now, then follows the folder's changes by its events. */
  start(): void {
    this.progress.running = true;
    this.watcher ??= new FolderWatcher(this.dataRoot, { rootNames: ["knowledge"], pollMs: POLL_MS, onChange: () => this.syncAfterChange() });
    this.watcher.request();
    if (this.server) {
      this.leaseTimer = setInterval(() => void this.tick(), Math.max(200, Math.floor(this.server.leaseMs / 3)));
      this.leaseTimer.unref();
      void this.tick();
    }
  }

  /** Stops watching and waits for a running sync, so nothing writes to storage/ after the server stopped. */
  async close(): Promise<void> {
    this.watcher?.close();
    this.watcher = null;
    this.closed = true;
    if (this.changeTimer) clearTimeout(this.changeTimer);
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    // The document being written finishes (its transaction commits); a long read is cut short.
    await Promise.race([this.syncing?.catch(() => {}), new Promise((r) => setTimeout(r, 2000))]);
    await this.worker.close();
    await this.extractor.close();
    await this.syncing?.catch(() => {});
    await this.loaded?.catch(() => {});
    // A clean stop gives the shared collection's lease up: another workbench takes it at once.
    if (this.writer) await this.shared?.release();
    await this.reader?.close();
    this.reader = null;
  }

  /** Refuses a rebuild this workbench cannot do: the server store unreachable, or another workbench indexing the collection. */
  checkRebuild(): void {
    this.shared?.checkRebuild(this.reader !== null, this.writer);
  }

  /**
   * Drops the stored index and builds it again from the documents. The status says "running" from
   * the call to the end (a sync already under way, which it waits for, must not say otherwise).
   */
  async rebuild(): Promise<void> {
    this.rebuilding++;
    this.changed();
    try {
      await this.load();
      this.checkRebuild();
      await this.syncing?.catch(() => {});
      const reply = await this.worker.run({ kind: "clear", store: this.location, textAnalysis: TEXT_ANALYSIS_VERSION });
      if (!reply.ok) throw new Error(`the index could not be cleared (${reply.reason})`);
      await this.refreshDocuments();
      this.vectorsPending = true;
      await this.sync();
    } finally {
      this.rebuilding--;
    }
  }

  /**
   * Searches what is committed. A sync with the folder that is due (a change seen, no events to go
   * by) is started, and waited for up to a second (a file just written is found), except the first
   * sync after start; while documents are being indexed the reply says so and answers at once.
   */
  async search(query: string, k: number, options: { sync?: boolean } = {}): Promise<SearchReply> {
    if (options.sync !== false && this.syncing === null && this.mustSync()) {
      const syncing = this.sync().catch((err) => this.log.warn({ err }, "knowledge sync failed"));
      // The first sync since start (the whole folder against the store) is not waited for: what is committed answers.
      if (this.lastSync > 0) await Promise.race([syncing, new Promise((r) => setTimeout(r, SYNC_WAIT_MS))]);
    }
    try {
      return await this.searchStore(query, k);
    } catch (err) {
      if (!this.shared || err instanceof UserError) throw err;
      this.storeDown(err as Error);
      throw this.shared.unavailable(err as Error);
    }
  }

  private async searchStore(query: string, k: number): Promise<SearchReply> {
    await this.load();
    const { embedder, embedError } = this;
    return searchCommitted({ reader: this.openReader(), embedder, embedError, chunks: this.docs.chunks, dataRoot: this.writer ? this.dataRoot : null, indexing: this.indexingNow().running }, query, k);
  }

  /** A sync with the folder that starts after this moment (see `syncAfterChange`), waited for up to `ms`. */
  private async syncSoon(ms: number): Promise<void> {
    await Promise.race([this.syncAfterChange(), new Promise((r) => setTimeout(r, ms))]);
  }

  /** Stores a new document under knowledge/ (byte for byte, never over another) and indexes it. */
  async add(filename: string, bytes: Uint8Array): Promise<KnowledgeUploadReply> {
    const path = knowledgePath(filename);
    if (bytes.byteLength > MAX_DOCUMENT_BYTES) throw new UserError("too_large", `${bytes.byteLength} bytes, over the ${MAX_DOCUMENT_BYTES}-byte limit for a document; nothing was written.`);
    await addKnowledgeFile(this.dataRoot, path, bytes);
    await this.syncSoon(UPLOAD_WAIT_MS);
    const doc = this.docs.get(path);
    if (!doc) return { path, bytes: bytes.byteLength, state: "pending", chunks: 0 };
    return doc.reason !== null
      ? { path, bytes: bytes.byteLength, state: "failed", chunks: 0, reason: doc.reason }
      : { path, bytes: bytes.byteLength, state: "indexed", chunks: doc.chunks };
  }

  /** Moves a document to the trash; it leaves the list and the results at once. */
  async remove(path: string): Promise<KnowledgeRemoveReply> {
    const clean = knowledgePath(path);
    const trash = await trashKnowledgeFile(this.dataRoot, clean);
    await this.syncSoon(UPLOAD_WAIT_MS);
    return { path: clean, trash };
  }

  /** Brings a removed document back from the trash, and indexes it again. */
  async restore(trash: string): Promise<{ path: string }> {
    const path = await restoreKnowledgeFile(this.dataRoot, trash);
    await this.syncSoon(UPLOAD_WAIT_MS);
    return { path };
  }

  /**
   * A document's text as the indexer reads it, for a citation to open: PDF, Word and the other
   * formats extracted off the server's thread (a PDF by page). `path` is a clean knowledge/ path.
   */
  async source(path: string): Promise<KnowledgeSourceReply> {
    if (!path.startsWith("knowledge/") || !KNOWLEDGE_EXTENSIONS.test(path)) {
      throw new UserError("invalid_request", `Not a knowledge document: ${path} (knowledge/ files of the kinds the index reads).`);
    }
    const info = await lstat(join(this.dataRoot, path)).catch(() => null);
    if (!info?.isFile()) throw new UserError("not_found", `No such document: ${path}.`);
    const { text, pages } = await this.extract(path, path);
    return { path, text, pages, page_word: pageWord(path) };
  }

  /**
   * The text of a document anywhere in the data root (a knowledge document, an attachment), read by
   * the indexer's loaders off the server's thread, within its time budget; a 422 naming `name` when it
   * cannot be read.
   */
  async extract(path: string, name: string): Promise<{ text: string; pages: Array<{ page: number; line: number }> | null }> {
    const result = await this.extractor.run({ kind: "extract", dataRoot: this.dataRoot, path, maxBytes: MAX_DOCUMENT_BYTES });
    if (!result.ok) throw new UserError("unprocessable", `${name} could not be read: ${result.reason}`);
    return { text: result.text ?? "", pages: result.pages ?? null };
  }

  /** Whether a search must sync with the folder first: a change seen and not yet indexed, or no events to go by. */
  private mustSync(): boolean {
    if (this.watcher?.state.mode === "events") return this.watcher.pending || this.syncing !== null;
    return Date.now() - this.lastSync > FRESH_MS;
  }

  /** Every document the index knows (indexed, or failed with the reason) and those the walk refused. */
  documents(): KnowledgeDocument[] {
    const known = this.docs.listed();
    const refused: KnowledgeDocument[] = this.walkSkipped.map(({ path, reason }) => ({ path, state: "skipped", chunks: 0, bytes: null, reason }));
    return [...known, ...refused].sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  }

  /** How far indexing is: this workbench's, or that of the workbench indexing the shared collection. */
  private indexingNow(): KnowledgeStatus["indexing"] {
    const indexer = this.shared?.indexer;
    if (!this.writer && indexer) return indexer.progress;
    return { ...this.progress, running: this.progress.running || this.rebuilding > 0 };
  }

  private storeStatus(): KnowledgeStatus["store"] {
    if (!this.shared) return { kind: "sqlite", location: describeStore(this.location, this.dataRoot), collection: null, vectors: "embedded", connected: true, error: null, indexer: null };
    return this.shared.status(this.reader !== null, this.reader instanceof PostgresIndexStore && this.reader.pgvector);
  }

  status(): KnowledgeStatus {
    const hybrid = this.embedError === null;
    return {
      documents: this.docs.size,
      chunks: this.docs.chunks,
      mode: hybrid ? "hybrid" : "bm25",
      embedder: { mode: this.embedder.mode, label: this.embedder.label, error: this.embedError },
      last_update: this.docs.lastUpdate,
      indexing: this.indexingNow(),
      skipped: [
        ...this.walkSkipped,
        ...this.docs.failed(),
      ],
      truncated: this.walkTruncated,
      recovered: this.recovered,
      watch: this.watcher ? { ...this.watcher.state, walks: this.walks } : { mode: "off", folders: 0, reason: null, walks: this.walks },
      store: this.storeStatus(),
    };
  }
}
