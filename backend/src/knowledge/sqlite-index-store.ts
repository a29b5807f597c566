/**
 * The knowledge index on disk: one SQLite database (through libsql, the better-sqlite3-compatible
 * binding of the libSQL fork, which installs from a prebuilt binary with FTS5) under
 * `storage/knowledge/`. Chunks, their BM25 terms (an FTS5 table fed the terms our text analysis
 * made), their vectors and each document's state live in it together, so a document is written in
 * one transaction: wholly at its old version or wholly at its new one, whenever the process dies.
 * The documents table is also the indexer's progress: a document whose size and mtime match is done.
 *
 * One connection writes (the indexer's worker thread); the server's thread reads through another,
 * and in WAL mode it reads the last committed state while a write is under way.
 */
import Database from "libsql";
import { luceneIdf } from "./bm25.js";
import type { Scored } from "./top-k.js";
import { queryTerms, scoredTerms } from "./scored-terms.js";
import { FrequencyCache } from "./frequency-cache.js";
import { decodeVector, dotStored, encodeVector, type VectorFormat } from "./sparse-vector.js";
import { OFFLINE_DIMENSIONS } from "./offline-embedder.js";
import { type DocumentRow, type IndexStore, type NewChunk, type StoredChunk, TWO_PHASE_FROM, type VectorSpace } from "./index-store.js";

/** The schema's version, recorded in meta so that a later schema can tell an older store and migrate it. */
export const STORE_FORMAT = 1;

type Db = InstanceType<typeof Database>;
type Statement = Database.Statement<unknown[]>;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS documents(path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime REAL NOT NULL, chunks INTEGER NOT NULL, reason TEXT) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chunks(id INTEGER PRIMARY KEY, path TEXT NOT NULL, idx INTEGER NOT NULL, line INTEGER NOT NULL, text TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_by_path ON chunks(path);
CREATE TABLE IF NOT EXISTS vectors(id INTEGER PRIMARY KEY, v BLOB NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS chunk_terms USING fts5(terms, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE IF NOT EXISTS term_stats USING fts5vocab(chunk_terms, 'row');
`;


/** A term as an FTS5 string (quoted, so no term is read as an operator). */
const quoted = (term: string) => `"${term.replace(/"/g, '""')}"`;

export class SqliteIndexStore implements IndexStore {
  private readonly db: Db;
  private readonly statements = new Map<string, Statement>();

  private constructor(db: Db) {
    this.db = db;
  }

  /** Opens (or makes) the database. */
  static open(file: string): SqliteIndexStore {
    const db = new Database(file);
    try {
      db.pragma("busy_timeout = 10000");
      db.pragma("journal_mode = WAL");
      // Once reset, the log's file is cut back to 64 MB: a single large write (an FTS5 merge while
      // indexing from empty) otherwise left it as big as the index beside it (855 MB at 216,658 chunks).
      db.pragma("journal_size_limit = 67108864");
      // Durable against a crash of the process (WAL); a power cut may lose the last commits, never mix them.
      db.pragma("synchronous = NORMAL");
      db.pragma("cache_size = -16000");
      // A removed document's text is overwritten where it was, not left in free pages.
      db.pragma("secure_delete = ON");
      db.exec(SCHEMA);
      // FTS5's own: a removed chunk's entries leave its term lists at once.
      db.exec("INSERT INTO chunk_terms(chunk_terms, rank) VALUES ('secure-delete', 1)");
      db.prepare("INSERT OR IGNORE INTO meta(key, value) VALUES ('format', ?)").run(String(STORE_FORMAT));
      // The chunk count, counted once when the store has none. (Key "chunk_count" was counted inside the
      // first write's transaction, its new rows included twice; "chunks" replaces it.)
      if (db.prepare("SELECT 1 FROM meta WHERE key = 'chunks'").get() === undefined) {
        db.transaction(() => {
          db.exec("DELETE FROM meta WHERE key = 'chunk_count'");
          db.exec("INSERT OR IGNORE INTO meta(key, value) SELECT 'chunks', count(*) FROM chunks INDEXED BY chunks_by_path");
        })();
      }
    } catch (err) {
      db.close();
      throw err;
    }
    return new SqliteIndexStore(db);
  }

  private sql(text: string): Statement {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare<unknown[]>(text)));
    return statement;
  }

  /** Rows of `select` (ending in `IN`) for these keys, as arrays, 500 keys a statement (SQLite's parameter limit). */
  private rowsIn<Row extends unknown[]>(select: string, keys: unknown[]): Row[] {
    const rows: Row[] = [];
    for (let i = 0; i < keys.length; i += 500) {
      const slice = keys.slice(i, i + 500);
      rows.push(...(this.db.prepare<unknown[]>(`${select} (${slice.map(() => "?").join(",")})`).raw().all(...slice) as Row[]));
    }
    return rows;
  }

  meta(key: string): string | null {
    return ((this.sql("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined)?.value) ?? null;
  }

  private setMeta(key: string, value: string): void {
    this.sql("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
  }

  documents(): DocumentRow[] {
    return (this.sql("SELECT path, size, mtime, chunks, reason FROM documents").all() as Array<{ path: string; size: number; mtime: number; chunks: number; reason: string | null }>).map(
      (row) => ({ path: row.path, size: row.size, mtimeMs: row.mtime, chunks: row.chunks, reason: row.reason }),
    );
  }

  /** The chunk count, kept in meta by every write (counting 200,000 rows of text reads the whole table: 60-170 ms). */
  chunkCount(): number {
    return Number(this.meta("chunks"));
  }

  private addToChunkCount(delta: number): void {
    if (delta !== 0) this.setMeta("chunks", String(this.chunkCount() + delta));
  }

  /** How many chunks hold each term (FTS5 reads a term's whole list to count it: 2-8 ms for a common term at 200,000 chunks). */
  private readonly frequencies = new FrequencyCache();
  private documentFrequencies(terms: string[]): Map<string, number> {
    const n = this.chunkCount();
    const { found, stale } = this.frequencies.lookup(terms, n);
    if (stale.length === 0) return found;
    return this.frequencies.remember(stale, new Map(this.rowsIn<[string, number]>("SELECT term, doc FROM term_stats WHERE term IN", stale)), n, found);
  }

  private deleteChunksOf(path: string): void {
    const ids = this.sql("SELECT id FROM chunks WHERE path = ?").pluck().all(path) as number[];
    for (const id of ids) {
      this.sql("DELETE FROM chunk_terms WHERE rowid = ?").run(id);
      this.sql("DELETE FROM vectors WHERE id = ?").run(id);
    }
    this.sql("DELETE FROM chunks WHERE path = ?").run(path);
    this.addToChunkCount(-ids.length);
  }

  /**
   * A document at its new version, in one transaction: its old chunks go, the new ones (terms,
   * vectors when given in `space`) come, and its row says it is done at this size and mtime.
   */
  writeDocument(doc: { path: string; size: number; mtimeMs: number }, chunks: NewChunk[], vectors: { space: VectorSpace; rows: Float32Array[] } | null): void {
    this.db.transaction(() => {
      this.deleteChunksOf(doc.path);
      const writeVectors = vectors !== null && this.meta("embedder") === vectors.space.embedder;
      if (!writeVectors && chunks.length > 0) this.setMeta("vectors_complete", "0");
      for (let i = 0; i < chunks.length; i++) {
        const chunk = chunks[i];
        const id = Number(this.sql("INSERT INTO chunks(path, idx, line, text) VALUES (?, ?, ?, ?)").run(doc.path, chunk.index, chunk.line, chunk.text).lastInsertRowid);
        this.sql("INSERT INTO chunk_terms(rowid, terms) VALUES (?, ?)").run(id, chunk.terms);
        if (writeVectors) this.sql("INSERT INTO vectors(id, v) VALUES (?, ?)").run(id, encodeVector(vectors.rows[i], vectors.space.format));
      }
      this.addToChunkCount(chunks.length);
      this.sql("INSERT OR REPLACE INTO documents(path, size, mtime, chunks, reason) VALUES (?, ?, ?, ?, NULL)").run(doc.path, doc.size, doc.mtimeMs, chunks.length);
      this.setMeta("updated_at", new Date().toISOString());
    })();
  }

  /** A document that could not be read: no chunks, its reason kept (retried when it changes). */
  failDocument(doc: { path: string; size: number; mtimeMs: number }, reason: string): void {
    this.db.transaction(() => {
      this.deleteChunksOf(doc.path);
      this.sql("INSERT OR REPLACE INTO documents(path, size, mtime, chunks, reason) VALUES (?, ?, ?, 0, ?)").run(doc.path, doc.size, doc.mtimeMs, reason);
      this.setMeta("updated_at", new Date().toISOString());
    })();
  }

  removeDocument(path: string): void {
    this.db.transaction(() => {
      this.deleteChunksOf(path);
      this.sql("DELETE FROM documents WHERE path = ?").run(path);
      this.setMeta("updated_at", new Date().toISOString());
    })();
    // The write-ahead log still holds the pages as they were: move them into the file and empty it.
    this.db.pragma("wal_checkpoint(TRUNCATE)");
  }

  /** Everything goes (a rebuild, or another text analysis): documents are indexed again. */
  clear(textAnalysis: number): void {
    this.db.transaction(() => {
      for (const table of ["documents", "chunks", "vectors"]) this.db.exec(`DELETE FROM ${table}`);
      this.db.exec("DELETE FROM chunk_terms");
      this.setMeta("chunks", "0");
      this.setMeta("text_analysis", String(textAnalysis));
      this.setMeta("updated_at", new Date().toISOString());
    })();
  }

  /** Whether the store is at this text analysis and vector space already (opening it needs no change). */
  preparedFor(textAnalysis: number, space: VectorSpace): boolean {
    return this.meta("text_analysis") === String(textAnalysis) && this.holdsVectorsOf(space);
  }

  private holdsVectorsOf(space: VectorSpace): boolean {
    return this.meta("embedder") === space.embedder && this.meta("vector_format") === space.format;
  }

  /** Vectors belong to one embedder: another one's are dropped (they are recomputed). */
  useVectorSpace(space: VectorSpace): void {
    if (this.holdsVectorsOf(space)) return;
    this.db.transaction(() => {
      this.db.exec("DELETE FROM vectors");
      this.setMeta("embedder", space.embedder);
      this.setMeta("vector_format", space.format);
      this.setMeta("vectors_complete", "0");
    })();
  }

  /** Every chunk has its vector (the last look for missing ones found none): the next start need not look. */
  markVectorsComplete(): void {
    this.setMeta("vectors_complete", "1");
  }

  /** Whether chunks may lack vectors (written without, or the embedder changed). */
  vectorsMayBeMissing(): boolean {
    return this.meta("vectors_complete") !== "1";
  }

  vectorSpace(): VectorSpace | null {
    const embedder = this.meta("embedder");
    const format = this.meta("vector_format") as VectorFormat | null;
    return embedder && format ? { embedder, format } : null;
  }

  /** Vectors for chunks that still exist, in one transaction; none when the embedder changed meanwhile. */
  storeVectors(space: VectorSpace, rows: Array<{ id: number; vector: Float32Array }>): number {
    let stored = 0;
    this.db.transaction(() => {
      if (this.meta("embedder") !== space.embedder) return;
      for (const { id, vector } of rows) {
        if (this.sql("SELECT 1 FROM chunks WHERE id = ?").get(id) === undefined) continue;
        this.sql("INSERT OR REPLACE INTO vectors(id, v) VALUES (?, ?)").run(id, encodeVector(vector, space.format));
        stored++;
      }
    })();
    return stored;
  }

  /** Chunks without a vector yet, a batch at a time. */
  missingVectors(limit: number): StoredChunk[] {
    return (this.sql("SELECT c.id, c.path, c.idx, c.line, c.text FROM chunks c LEFT JOIN vectors v ON v.id = c.id WHERE v.id IS NULL ORDER BY c.id LIMIT ?").all(limit) as Array<{ id: number; path: string; idx: number; line: number; text: string }>).map(
      (row) => ({ id: row.id, path: row.path, index: row.idx, line: row.line, text: row.text }),
    );
  }

  vectorCount(): number {
    return (this.sql("SELECT count(*) AS n FROM vectors").get() as { n: number }).n;
  }

  /**
   * BM25 (bm25.ts: k1 = 1.2, b = 0.75, Lucene's idf, log(1 + (N - df + 0.5) / (df + 0.5)), which
   * stays positive) over the chunks' terms, evaluated inside SQLite: FTS5's own bm25() takes log((N - df + 0.5) / (df + 0.5)), which goes
   * to nothing (clamped at 1e-6) for a term in half the chunks or more, so in a store of one or two
   * documents an exact keyword match scored "0.00". Each term's rows come from FTS5 with its bm25()
   * of that term alone, which is FTS5's idf times the term's saturated frequency: the frequency is
   * recovered by dividing by FTS5's idf (from the same df, counted by the same scan) and weighed with
   * Lucene's. The terms are summed and the best kept inside SQLite: handing every matched row to
   * JavaScript cost ~1 µs a row (a query's p50 went from 13 to 54 ms at 200,000 chunks when it did).
   * Which terms are read, and how much of each: `scoredTerms`. The best `limit`, best first.
   */
  lexical(terms: string[], limit: number): Scored[] {
    const unique = queryTerms(terms);
    if (unique.length === 0) return [];
    const chunks = this.chunkCount();
    const chosen = scoredTerms(unique, chunks >= TWO_PHASE_FROM ? this.documentFrequencies(unique) : new Map(), chunks);
    // One branch per term: its rows, its bm25(), and its df (the rows the term matches; a capped
    // term's from the count FTS5 keeps, as its scan stops early).
    // Parameters: ?1 the chunk count, ?2 the limit, then each branch's own.
    let next = 3;
    const branches = chosen.map(({ cap }) =>
      cap === null
        ? // (LIMIT -1 keeps the match its own query: bm25() cannot be called where the window is counted.)
          `SELECT id, s, count(*) OVER () AS df FROM (SELECT rowid AS id, bm25(chunk_terms) AS s FROM chunk_terms WHERE chunk_terms MATCH ?${next++} LIMIT -1)`
        : `SELECT id, s, (SELECT doc FROM term_stats WHERE term = ?${next++}) AS df FROM (SELECT rowid AS id, bm25(chunk_terms) AS s FROM chunk_terms WHERE chunk_terms MATCH ?${next++} LIMIT ${cap})`,
    );
    const ratio = "((?1 - df + 0.5) / (df + 0.5))";
    const statement = this.sql(
      `SELECT id, sum(-s / max(ln(${ratio}), 1e-6) * ln(1 + ${ratio})) AS score FROM (${branches.map((b) => `SELECT * FROM (${b})`).join(" UNION ALL ")}) ` +
        "GROUP BY id ORDER BY score DESC, id LIMIT ?2",
    );
    const values = chosen.flatMap(({ term, cap }) => (cap === null ? [quoted(term)] : [term, quoted(term)]));
    return (statement.raw().all(chunks, limit, ...values) as Array<[number, number]>).map(([id, score]) => ({ id, score }));
  }

  /** How many of BM25's best the hybrid scores by vector: fewer past 20,000 chunks (each is a read of its vector). */
  hybridCandidates(): number {
    return this.chunkCount() >= TWO_PHASE_FROM ? 300 : 1000;
  }

  /** Inverse document frequency of each term, log(1 + (N - df + 0.5) / (df + 0.5)) (the offline query's weights). */
  idf(terms: string[]): Map<string, number> {
    const unique = [...new Set(terms)];
    const n = this.chunkCount();
    const out = new Map<string, number>();
    const df = this.documentFrequencies(unique);
    for (const term of unique) out.set(term, luceneIdf(n, df.get(term) ?? 0));
    return out;
  }

  /** The similarity of each of these chunks' vectors to the query, best first. */
  vectorScores(ids: number[], query: Float32Array, limit: number): Scored[] {
    const space = this.vectorSpace();
    if (!space || ids.length === 0) return [];
    const scored: Scored[] = [];
    for (const [id, v] of this.rowsIn<[number, Uint8Array]>("SELECT id, v FROM vectors WHERE id IN", ids)) scored.push({ id, score: dotStored(v, space.format, query) });
    return scored.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
  }

  /** Every vector scored against the query (an exact scan: for vector-only queries). */
  scanVectors(query: Float32Array, limit: number): Scored[] {
    const space = this.vectorSpace();
    if (!space) return [];
    const best: Scored[] = [];
    for (const [id, v] of this.sql("SELECT id, v FROM vectors").raw().iterate() as Iterable<[number, Uint8Array]>) {
      const score = dotStored(v, space.format, query);
      if (best.length < limit || score > best[best.length - 1].score) {
        best.push({ id, score });
        best.sort((a, b) => b.score - a.score || a.id - b.id);
        if (best.length > limit) best.pop();
      }
    }
    return best;
  }

  chunks(ids: number[]): Map<number, StoredChunk> {
    const out = new Map<number, StoredChunk>();
    for (const [id, path, index, line, text] of this.rowsIn<[number, string, number, number, string]>("SELECT id, path, idx, line, text FROM chunks WHERE id IN", ids)) {
      out.set(id, { id, path, index, line, text });
    }
    return out;
  }

  /** A document's chunks in order (for a LlamaIndex consumer, and the tests). */
  chunksOf(path: string): StoredChunk[] {
    return (this.sql("SELECT id, path, idx, line, text FROM chunks WHERE path = ? ORDER BY idx").all(path) as Array<{ id: number; path: string; idx: number; line: number; text: string }>).map(
      (row) => ({ id: row.id, path: row.path, index: row.idx, line: row.line, text: row.text }),
    );
  }

  vectorsOf(ids: number[]): Map<number, Float32Array> {
    const space = this.vectorSpace();
    const out = new Map<number, Float32Array>();
    if (!space) return out;
    for (const [id, v] of this.rowsIn<[number, Uint8Array]>("SELECT id, v FROM vectors WHERE id IN", ids)) out.set(id, decodeVector(v, space.format, OFFLINE_DIMENSIONS));
    return out;
  }

  close(): void {
    this.statements.clear();
    this.db.close();
  }
}
