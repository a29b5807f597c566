/**
 * The knowledge index on a PostgreSQL server (`KNOWLEDGE_STORE_URL`), for a corpus that belongs on a
 * server and for several workbenches searching one index. Everything lives in the schema
 * `mini_openclaw` (postgres-schema.ts: made and migrated on open), one collection's rows apart from
 * another's.
 *
 * BM25 is the workbench's own, as in the embedded store: a postings table (term, chunk, count) and
 * each chunk's length, scored here with the same formula, not `ts_rank`. Vectors go into pgvector
 * when the server has the extension, else beside the chunks in the embedded store's encoding
 * (postgres-vectors.ts); the hybrid rescores BM25's candidates as there. A document is written in one transaction, and only by the workbench
 * holding the collection's lease (index-lease.ts): a write after the lease passed on is refused.
 */
import { KNOWLEDGE_COLLECTION_NAME } from "@mini-openclaw/protocol";
import pg from "pg";
import { type DocumentRow, type DocumentVersion, type IndexStore, type NewChunk, type StoredChunk, TWO_PHASE_FROM, type VectorSpace } from "./index-store.js";
import { luceneIdf, termScore } from "./bm25.js";
import { type Client, inTransaction, migrate, SCHEMA as S } from "./postgres-schema.js";
import { pgvectorColumn, storedColumn, type VectorColumn, type VectorRow } from "./postgres-vectors.js";
import { type Scored, topScored } from "./top-k.js";
import { FrequencyCache } from "./frequency-cache.js";
import { queryTerms, scoredTerms } from "./scored-terms.js";

/** Another workbench holds the collection's lease: this one must not write. */
export class LeaseLostError extends Error {}

export class PostgresIndexStore implements IndexStore {
  private constructor(
    readonly pool: pg.Pool,
    readonly collection: string,
    /** pgvector's column when the server has the extension, else vectors stored beside the chunks. */
    private readonly vectors: VectorColumn,
    private readonly holder: string | null,
  ) {}

  /** Whether vectors go into pgvector (the server has the extension). */
  get pgvector(): boolean {
    return this.vectors.kind === "pgvector";
  }
  /**
   * Connects and brings the schema to this version (inside one transaction). `holder`: the lease id
   * checked by every write (null: a reader, which never writes).
   */
  static async open(options: { url: string; collection: string; holder: string | null; connectTimeoutMs?: number }): Promise<PostgresIndexStore> {
    // The name goes into index names and the vector index's predicate as it is.
    if (!KNOWLEDGE_COLLECTION_NAME.test(options.collection)) throw new Error(`"${options.collection}" is not a collection name`);
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 3,
      // A refused connection fails at once; this is for a server too busy to answer (one running a long statement).
      connectionTimeoutMillis: options.connectTimeoutMs ?? 20_000,
      // No time limit on a statement: building a collection's HNSW index takes minutes on a large one
      // (a server's own statement_timeout still applies); a lost connection fails at once.
      idleTimeoutMillis: 10_000,
      application_name: "mini-openclaw",
    });
    // A server that goes away errors its idle connections: the next query connects again.
    pool.on("error", () => {});
    try {
      const pgvector = await migrate(pool);
      return new PostgresIndexStore(pool, options.collection, pgvector ? pgvectorColumn : storedColumn, options.holder);
    } catch (err) {
      await pool.end().catch(() => {});
      throw err;
    }
  }

  /** Work in one transaction; a write first checks that this workbench holds the lease. */
  private transaction<T>(work: (client: Client) => Promise<T>, { write = true } = {}): Promise<T> {
    return inTransaction(this.pool, async (client) => {
      if (write) await this.checkLease(client);
      return work(client);
    });
  }

  /** Writes only while this workbench holds the lease (a row lock keeps a takeover out until the commit). */
  private async checkLease(client: Client): Promise<void> {
    if (this.holder === null) throw new LeaseLostError("this workbench only reads the shared index");
    const row = await client.query(`SELECT holder, host, pid FROM ${S}.leases WHERE collection = $1 FOR UPDATE`, [this.collection]);
    const lease = row.rows[0] as { holder: string; host: string; pid: number } | undefined;
    if (lease?.holder !== this.holder) {
      throw new LeaseLostError(lease ? `the collection is indexed by another workbench (${lease.host}, pid ${lease.pid})` : "this workbench's lease on the collection has ended");
    }
  }

  /** The collection's figures (chunk count, total length, embedder, versions) in one read. */
  private async collectionMeta(): Promise<Map<string, string>> {
    const rows = await this.pool.query(`SELECT key, value FROM ${S}.meta WHERE collection = $1`, [this.collection]);
    return new Map((rows.rows as Array<{ key: string; value: string }>).map((row) => [row.key, row.value]));
  }

  private async metaWith(client: Client, key: string): Promise<string | null> {
    const row = await client.query(`SELECT value FROM ${S}.meta WHERE collection = $1 AND key = $2`, [this.collection, key]);
    return (row.rows[0] as { value: string } | undefined)?.value ?? null;
  }

  private async setMeta(client: Client, key: string, value: string): Promise<void> {
    await client.query(`INSERT INTO ${S}.meta(collection, key, value) VALUES ($1, $2, $3) ON CONFLICT (collection, key) DO UPDATE SET value = excluded.value`, [this.collection, key, value]);
  }

  private async addToMeta(client: Client, key: string, delta: number): Promise<void> {
    if (delta === 0) return;
    await client.query(
      `INSERT INTO ${S}.meta(collection, key, value) VALUES ($1, $2, $3) ON CONFLICT (collection, key) DO UPDATE SET value = (${S}.meta.value::bigint + $3::bigint)::text`,
      [this.collection, key, String(delta)],
    );
  }

  async meta(key: string): Promise<string | null> {
    return (await this.collectionMeta()).get(key) ?? null;
  }

  async documents(): Promise<DocumentRow[]> {
    const rows = await this.pool.query(`SELECT path, size, mtime, chunks, reason FROM ${S}.documents WHERE collection = $1`, [this.collection]);
    return (rows.rows as Array<{ path: string; size: string; mtime: number; chunks: number; reason: string | null }>).map((row) => ({
      path: row.path,
      size: Number(row.size),
      mtimeMs: row.mtime,
      chunks: row.chunks,
      reason: row.reason,
    }));
  }

  async chunkCount(): Promise<number> {
    return Number((await this.meta("chunks")) ?? 0);
  }

  /** Deletes a document's chunks (their postings and vectors go with them); their count and total length. */
  private async deleteChunksOf(client: Client, path: string): Promise<void> {
    const gone = await client.query(`DELETE FROM ${S}.chunks WHERE collection = $1 AND path = $2 RETURNING length`, [this.collection, path]);
    const lengths = (gone.rows as Array<{ length: number }>).reduce((sum, row) => sum + row.length, 0);
    await this.addToMeta(client, "chunks", -gone.rowCount!);
    await this.addToMeta(client, "total_length", -lengths);
  }

  async writeDocument(doc: DocumentVersion, chunks: NewChunk[], vectors: { space: VectorSpace; rows: Float32Array[] } | null): Promise<void> {
    await this.transaction(async (client) => {
      await this.deleteChunksOf(client, doc.path);
      const writeVectors = vectors !== null && (await this.metaWith(client, "embedder")) === vectors.space.embedder;
      if (!writeVectors && chunks.length > 0) await this.setMeta(client, "vectors_complete", "0");
      const terms = chunks.map((c) => (c.terms === "" ? [] : c.terms.split(" ")));
      const inserted = await client.query(
        `INSERT INTO ${S}.chunks(collection, path, idx, line, text, length)
         SELECT $1, $2, t.idx, t.line, t.text, t.length FROM unnest($3::int[], $4::int[], $5::text[], $6::int[]) AS t(idx, line, text, length)
         RETURNING id, idx`,
        [this.collection, doc.path, chunks.map((c) => c.index), chunks.map((c) => c.line), chunks.map((c) => c.text), terms.map((t) => t.length)],
      );
      const idOf = new Map((inserted.rows as Array<{ id: string; idx: number }>).map((row) => [row.idx, Number(row.id)]));
      const ids = chunks.map((c) => idOf.get(c.index)!);
      const postingTerms: string[] = [];
      const postingIds: number[] = [];
      const postingTfs: number[] = [];
      terms.forEach((list, i) => {
        const counts = new Map<string, number>();
        for (const term of list) counts.set(term, (counts.get(term) ?? 0) + 1);
        for (const [term, tf] of counts) {
          postingTerms.push(term);
          postingIds.push(ids[i]);
          postingTfs.push(tf);
        }
      });
      if (postingTerms.length > 0) {
        await client.query(`INSERT INTO ${S}.postings(collection, term, chunk_id, tf) SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::int[])`, [
          this.collection,
          postingTerms,
          postingIds,
          postingTfs,
        ]);
      }
      if (writeVectors) await this.vectors.write(client, this.collection, vectors.space, ids.map((id, i) => ({ id, vector: vectors.rows[i] })));
      await this.addToMeta(client, "chunks", chunks.length);
      await this.addToMeta(client, "total_length", terms.reduce((sum, t) => sum + t.length, 0));
      await client.query(
        `INSERT INTO ${S}.documents(collection, path, size, mtime, chunks, reason) VALUES ($1, $2, $3, $4, $5, NULL)
         ON CONFLICT (collection, path) DO UPDATE SET size = excluded.size, mtime = excluded.mtime, chunks = excluded.chunks, reason = NULL`,
        [this.collection, doc.path, doc.size, doc.mtimeMs, chunks.length],
      );
      await this.setMeta(client, "updated_at", new Date().toISOString());
    });
  }

  async failDocument(doc: DocumentVersion, reason: string): Promise<void> {
    await this.transaction(async (client) => {
      await this.deleteChunksOf(client, doc.path);
      await client.query(
        `INSERT INTO ${S}.documents(collection, path, size, mtime, chunks, reason) VALUES ($1, $2, $3, $4, 0, $5)
         ON CONFLICT (collection, path) DO UPDATE SET size = excluded.size, mtime = excluded.mtime, chunks = 0, reason = excluded.reason`,
        [this.collection, doc.path, doc.size, doc.mtimeMs, reason],
      );
      await this.setMeta(client, "updated_at", new Date().toISOString());
    });
  }

  async removeDocument(path: string): Promise<void> {
    await this.transaction(async (client) => {
      await this.deleteChunksOf(client, path);
      await client.query(`DELETE FROM ${S}.documents WHERE collection = $1 AND path = $2`, [this.collection, path]);
      await this.setMeta(client, "updated_at", new Date().toISOString());
    });
  }

  /** This collection's index goes (others are untouched). */
  async clear(textAnalysis: number): Promise<void> {
    await this.transaction(async (client) => {
      await client.query(`DELETE FROM ${S}.documents WHERE collection = $1`, [this.collection]);
      await client.query(`DELETE FROM ${S}.chunks WHERE collection = $1`, [this.collection]);
      await this.setMeta(client, "chunks", "0");
      await this.setMeta(client, "total_length", "0");
      await this.setMeta(client, "text_analysis", String(textAnalysis));
      await this.setMeta(client, "updated_at", new Date().toISOString());
    });
    this.frequencies.clear();
  }

  async preparedFor(textAnalysis: number, space: VectorSpace): Promise<boolean> {
    return (await this.meta("text_analysis")) === String(textAnalysis) && (await this.holdsVectorsOf(space));
  }

  private async holdsVectorsOf(space: VectorSpace): Promise<boolean> {
    const current = await this.vectorSpace();
    return current?.embedder === space.embedder && current.format === space.format;
  }

  async useVectorSpace(space: VectorSpace): Promise<void> {
    if (await this.holdsVectorsOf(space)) return;
    await this.transaction(async (client) => {
      await client.query(`DELETE FROM ${S}.vectors WHERE collection = $1`, [this.collection]);
      await this.setMeta(client, "embedder", space.embedder);
      await this.setMeta(client, "vector_format", space.format);
      await this.setMeta(client, "vectors_complete", "0");
    });
  }

  async markVectorsComplete(): Promise<void> {
    // The vector index is built first, in a transaction of its own: building it twice is harmless, and a
    // write's lease check locks the lease row to its commit, which would hold the heartbeat back for
    // the whole build (minutes at 200k chunks; other workbenches would take the lease meanwhile).
    await this.transaction((client) => this.vectors.complete(client, this.collection), { write: false });
    await this.transaction((client) => this.setMeta(client, "vectors_complete", "1"));
  }

  async vectorsMayBeMissing(): Promise<boolean> {
    return (await this.meta("vectors_complete")) !== "1";
  }

  async vectorSpace(): Promise<VectorSpace | null> {
    const meta = await this.collectionMeta();
    const embedder = meta.get("embedder");
    const format = meta.get("vector_format") as VectorSpace["format"] | undefined;
    return embedder && format ? { embedder, format } : null;
  }

  async storeVectors(space: VectorSpace, rows: VectorRow[]): Promise<number> {
    return this.transaction(async (client) => ((await this.metaWith(client, "embedder")) === space.embedder ? this.vectors.write(client, this.collection, space, rows) : 0));
  }

  async missingVectors(limit: number): Promise<StoredChunk[]> {
    const rows = await this.pool.query(
      `SELECT c.id, c.path, c.idx, c.line, c.text FROM ${S}.chunks c LEFT JOIN ${S}.vectors v ON v.chunk_id = c.id
       WHERE c.collection = $1 AND v.chunk_id IS NULL ORDER BY c.id LIMIT $2`,
      [this.collection, limit],
    );
    return rows.rows.map(chunkOf);
  }

  /** How many chunks hold each term (counted in the postings, remembered while the collection stays near its size). */
  private readonly frequencies = new FrequencyCache();
  private async documentFrequencies(terms: string[], n: number): Promise<Map<string, number>> {
    const { found, stale } = this.frequencies.lookup(terms, n);
    if (stale.length === 0) return found;
    const rows = await this.pool.query(`SELECT term, count(*) AS df FROM ${S}.postings WHERE collection = $1 AND term = ANY($2::text[]) GROUP BY term`, [this.collection, stale]);
    return this.frequencies.remember(stale, new Map((rows.rows as Array<{ term: string; df: string }>).map((row) => [row.term, Number(row.df)])), n, found);
  }

  /**
   * BM25 (bm25.ts), each chunk's length in terms against the collection's average; which terms are read, and how much of each: `scoredTerms`.
   */
  async lexical(terms: string[], limit: number): Promise<Scored[]> {
    const unique = queryTerms(terms);
    if (unique.length === 0) return [];
    const meta = await this.collectionMeta();
    const n = Number(meta.get("chunks") ?? 0);
    if (n === 0) return [];
    const avgLength = Number(meta.get("total_length") ?? 0) / n || 1;
    const frequencies = n >= TWO_PHASE_FROM ? await this.documentFrequencies(unique, n) : new Map<string, number>();
    const chosen = scoredTerms(unique, frequencies, n);
    const select = `SELECT p.term, p.chunk_id, p.tf, c.length FROM ${S}.postings p JOIN ${S}.chunks c ON c.id = p.chunk_id WHERE p.collection = $1`;
    const whole = chosen.filter((t) => t.cap === null).map((t) => t.term);
    const results = await Promise.all([
      whole.length > 0 ? this.pool.query({ text: `${select} AND p.term = ANY($2::text[])`, values: [this.collection, whole], rowMode: "array" }) : null,
      ...chosen
        .filter((t) => t.cap !== null)
        .map((t) => this.pool.query({ text: `${select} AND p.term = $2 ORDER BY p.chunk_id LIMIT $3`, values: [this.collection, t.term, t.cap], rowMode: "array" })),
    ]);
    const byTerm = new Map<string, Array<[number, number, number]>>();
    for (const result of results) {
      for (const [term, id, tf, length] of (result?.rows ?? []) as Array<[string, string, number, number]>) {
        let list = byTerm.get(term);
        if (!list) byTerm.set(term, (list = []));
        list.push([Number(id), tf, length]);
      }
    }
    const scores = new Map<number, number>();
    for (const { term, cap } of chosen) {
      const list = byTerm.get(term) ?? [];
      // A capped term's rows are a part of its postings: its df is the count, not the rows read.
      const df = cap === null ? list.length : (frequencies.get(term) ?? list.length);
      const idf = luceneIdf(n, df);
      for (const [id, tf, length] of list) scores.set(id, (scores.get(id) ?? 0) + termScore(idf, tf, length, avgLength));
    }
    return topScored(scores, limit);
  }

  async hybridCandidates(): Promise<number> {
    return (await this.chunkCount()) >= TWO_PHASE_FROM ? 300 : 1000;
  }

  async idf(terms: string[]): Promise<Map<string, number>> {
    const unique = [...new Set(terms)];
    const n = await this.chunkCount();
    const df = await this.documentFrequencies(unique, n);
    return new Map(unique.map((term) => [term, luceneIdf(n, df.get(term) ?? 0)]));
  }

  async vectorScores(ids: number[], query: Float32Array, limit: number): Promise<Scored[]> {
    const space = await this.vectorSpace();
    if (!space || ids.length === 0) return [];
    const scored = await this.vectors.scores(this.pool, ids, query, space);
    return scored.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
  }

  /** The nearest chunks: pgvector's HNSW index, else an exact scan. */
  async scanVectors(query: Float32Array, limit: number): Promise<Scored[]> {
    const space = await this.vectorSpace();
    if (!space) return [];
    return this.transaction((client) => this.vectors.nearest(client, this.collection, query, limit, space), { write: false });
  }

  async chunks(ids: number[]): Promise<Map<number, StoredChunk>> {
    if (ids.length === 0) return new Map();
    const rows = await this.pool.query(`SELECT id, path, idx, line, text FROM ${S}.chunks WHERE id = ANY($1::bigint[]) AND collection = $2`, [ids, this.collection]);
    return new Map(rows.rows.map((row) => [Number(row.id), chunkOf(row)]));
  }

  async chunksOf(path: string): Promise<StoredChunk[]> {
    const rows = await this.pool.query(`SELECT id, path, idx, line, text FROM ${S}.chunks WHERE collection = $1 AND path = $2 ORDER BY idx`, [this.collection, path]);
    return rows.rows.map(chunkOf);
  }

  async vectorsOf(ids: number[]): Promise<Map<number, Float32Array>> {
    const space = await this.vectorSpace();
    if (!space || ids.length === 0) return new Map();
    return this.vectors.read(this.pool, ids, space);
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }
}

function chunkOf(row: { id: string; path: string; idx: number; line: number; text: string }): StoredChunk {
  return { id: Number(row.id), path: row.path, index: row.idx, line: row.line, text: row.text };
}
