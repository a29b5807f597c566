/**
 * The knowledge index on a PostgreSQL server (`KNOWLEDGE_STORE_URL`), for a corpus that belongs on a
 * server and for several workbenches searching one index. Everything lives in the schema
 * `mini_openclaw`, created and migrated here (versioned), one collection's rows apart from another's.
 *
 * BM25 is the workbench's own, as in the embedded store: a postings table (term, chunk, count) and
 * each chunk's length, scored here with the same formula, not `ts_rank`. Vectors go into pgvector
 * (`halfvec`, an HNSW index per collection and dimension) when the server has the extension; without
 * it they are kept beside the chunks in the embedded store's encoding and scored here, BM25's
 * candidates rescored as there. A document is written in one transaction, and only by the workbench
 * holding the collection's lease (index-lease.ts): a write after the lease passed on is refused.
 */
import { KNOWLEDGE_COLLECTION_NAME } from "@mini-openclaw/protocol";
import pg from "pg";
import { COMMON_SHARE, type DocumentRow, type DocumentVersion, type IndexStore, type NewChunk, type StoredChunk, TWO_PHASE_FROM, type VectorSpace } from "./index-store.js";
import { DEFAULT_BM25 } from "./bm25-index.js";
import { decodeVector, dotStored, encodeVector } from "./sparse-vector.js";
import { OFFLINE_DIMENSIONS } from "./offline-embedder.js";
import { type Scored, topScored } from "./top-k.js";
import { FrequencyCache } from "./frequency-cache.js";

/** The schema version this workbench writes; a database at a later one is refused, never altered. */
export const POSTGRES_SCHEMA_VERSION = 1;
const S = "mini_openclaw";
/** pgvector indexes `halfvec` with HNSW up to this many dimensions; above it, vector-only queries scan. */
const HNSW_MAX_DIMENSIONS = 4000;

const MIGRATIONS: Record<number, string> = {
  1: `
CREATE TABLE ${S}.meta(collection text NOT NULL, key text NOT NULL, value text NOT NULL, PRIMARY KEY (collection, key));
CREATE TABLE ${S}.documents(collection text NOT NULL, path text NOT NULL, size bigint NOT NULL, mtime double precision NOT NULL, chunks integer NOT NULL, reason text, PRIMARY KEY (collection, path));
CREATE TABLE ${S}.chunks(id bigserial PRIMARY KEY, collection text NOT NULL, path text NOT NULL, idx integer NOT NULL, line integer NOT NULL, text text NOT NULL, length integer NOT NULL);
CREATE INDEX chunks_by_path ON ${S}.chunks(collection, path);
CREATE TABLE ${S}.postings(collection text NOT NULL, term text NOT NULL, chunk_id bigint NOT NULL REFERENCES ${S}.chunks(id) ON DELETE CASCADE, tf integer NOT NULL, PRIMARY KEY (collection, term, chunk_id));
CREATE INDEX postings_by_chunk ON ${S}.postings(chunk_id);
CREATE TABLE ${S}.vectors(chunk_id bigint PRIMARY KEY REFERENCES ${S}.chunks(id) ON DELETE CASCADE, collection text NOT NULL, v bytea);
CREATE INDEX vectors_by_collection ON ${S}.vectors(collection, chunk_id);
CREATE TABLE ${S}.leases(collection text PRIMARY KEY, holder text NOT NULL, host text NOT NULL, pid integer NOT NULL, heartbeat timestamptz NOT NULL, progress jsonb NOT NULL);
`,
};

/** The database is at a schema this workbench does not know: refused, not altered. */
export class NewerSchemaError extends Error {}
/** Another workbench holds the collection's lease: this one must not write. */
export class LeaseLostError extends Error {}

/** A vector as pgvector reads it: sparse (`{d:v,...}/n`, then cast) when mostly zeros, else dense. */
function vectorLiteral(vector: Float32Array): string {
  let nonZero = 0;
  for (let d = 0; d < vector.length; d++) if (vector[d] !== 0) nonZero++;
  if (nonZero * 4 < vector.length) {
    const parts: string[] = [];
    for (let d = 0; d < vector.length; d++) if (vector[d] !== 0) parts.push(`${d + 1}:${vector[d].toPrecision(5)}`);
    return `{${parts.join(",")}}/${vector.length}`;
  }
  return `[${Array.from(vector, (x) => x.toPrecision(6)).join(",")}]`;
}
const isSparse = (literal: string) => literal.startsWith("{");

type Client = pg.PoolClient;

export class PostgresStore implements IndexStore {
  private constructor(
    readonly pool: pg.Pool,
    readonly collection: string,
    /** Whether vectors go into pgvector (the server has the extension). */
    readonly pgvector: boolean,
    private readonly holder: string | null,
  ) {}

  /**
   * Connects and brings the schema to this version (inside one transaction). `holder`: the lease id
   * checked by every write (null: a reader, which never writes).
   */
  static async open(options: { url: string; collection: string; holder: string | null; connectTimeoutMs?: number }): Promise<PostgresStore> {
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
      return new PostgresStore(pool, options.collection, pgvector, options.holder);
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

  private async metaWith(client: pg.Pool | Client, key: string): Promise<string | null> {
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

  meta(key: string): Promise<string | null> {
    return this.metaWith(this.pool, key);
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
      if (writeVectors && chunks.length > 0) await this.insertVectors(client, vectors.space, ids.map((id, i) => ({ id, vector: vectors.rows[i] })));
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

  /** Vectors of chunks that exist, written (or rewritten) in this transaction; how many. */
  private async insertVectors(client: Client, space: VectorSpace, rows: Array<{ id: number; vector: Float32Array }>): Promise<number> {
    if (rows.length === 0) return 0;
    const ids = rows.map((r) => r.id);
    if (this.pgvector) {
      const literals = rows.map((r) => vectorLiteral(r.vector));
      const written = await client.query(
        `INSERT INTO ${S}.vectors(chunk_id, collection, embedding)
         SELECT t.id, $1, CASE WHEN t.sparse THEN t.e::sparsevec::vector::halfvec ELSE t.e::halfvec END
         FROM unnest($2::bigint[], $3::text[], $4::bool[]) AS t(id, e, sparse) JOIN ${S}.chunks c ON c.id = t.id
         ON CONFLICT (chunk_id) DO UPDATE SET embedding = excluded.embedding, v = NULL`,
        [this.collection, ids, literals, literals.map(isSparse)],
      );
      return written.rowCount ?? 0;
    }
    const written = await client.query(
      `INSERT INTO ${S}.vectors(chunk_id, collection, v)
       SELECT t.id, $1, t.v FROM unnest($2::bigint[], $3::bytea[]) AS t(id, v) JOIN ${S}.chunks c ON c.id = t.id
       ON CONFLICT (chunk_id) DO UPDATE SET v = excluded.v`,
      [this.collection, ids, rows.map((r) => encodeVector(r.vector, space.format))],
    );
    return written.rowCount ?? 0;
  }

  /**
   * The collection's HNSW index, made once its vectors are all in: pgvector builds an index over rows
   * already there far faster than it inserts them one by one (PGlite: 120 ms a chunk), and the hybrid
   * search rescoring BM25's candidates never needs it. A partial index on the cast, as pgvector
   * documents for vectors of several dimensions in one column; later writes keep it up to date.
   */
  private async ensureVectorIndex(client: Client): Promise<void> {
    const found = await client.query(`SELECT vector_dims(embedding) AS d FROM ${S}.vectors WHERE collection = $1 AND embedding IS NOT NULL LIMIT 1`, [this.collection]);
    const dimensions = (found.rows[0] as { d: number } | undefined)?.d;
    if (dimensions === undefined || dimensions > HNSW_MAX_DIMENSIONS) return;
    await client.query(
      `CREATE INDEX IF NOT EXISTS vectors_hnsw_${this.collection}_${dimensions} ON ${S}.vectors
       USING hnsw ((embedding::halfvec(${dimensions})) halfvec_ip_ops) WHERE collection = '${this.collection}'`,
    );
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
    await this.transaction(async (client) => {
      if (this.pgvector) await this.ensureVectorIndex(client);
      await this.setMeta(client, "vectors_complete", "1");
    });
  }

  async vectorsMayBeMissing(): Promise<boolean> {
    return (await this.meta("vectors_complete")) !== "1";
  }

  async vectorSpace(): Promise<VectorSpace | null> {
    const rows = await this.pool.query(`SELECT key, value FROM ${S}.meta WHERE collection = $1 AND key IN ('embedder', 'vector_format')`, [this.collection]);
    const meta = new Map((rows.rows as Array<{ key: string; value: string }>).map((row) => [row.key, row.value]));
    const embedder = meta.get("embedder");
    const format = meta.get("vector_format") as VectorSpace["format"] | undefined;
    return embedder && format ? { embedder, format } : null;
  }

  async storeVectors(space: VectorSpace, rows: Array<{ id: number; vector: Float32Array }>): Promise<number> {
    return this.transaction(async (client) => ((await this.metaWith(client, "embedder")) === space.embedder ? this.insertVectors(client, space, rows) : 0));
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
   * BM25 as the embedded store scores it: k1 1.2, b 0.75, Lucene's idf, each chunk's length in terms
   * against the collection's average; past 20,000 chunks a query with rarer terms is matched on those.
   */
  async lexical(terms: string[], limit: number): Promise<Scored[]> {
    let unique = [...new Set(terms)].filter((t) => t !== "");
    if (unique.length === 0) return [];
    const counts = await this.pool.query(`SELECT key, value FROM ${S}.meta WHERE collection = $1 AND key IN ('chunks', 'total_length')`, [this.collection]);
    const meta = new Map((counts.rows as Array<{ key: string; value: string }>).map((row) => [row.key, Number(row.value)]));
    const n = meta.get("chunks") ?? 0;
    if (n === 0) return [];
    const avgLength = (meta.get("total_length") ?? 0) / n || 1;
    if (n >= TWO_PHASE_FROM) {
      const frequencies = await this.documentFrequencies(unique, n);
      const rare = unique.filter((t) => (frequencies.get(t) ?? 0) <= n / COMMON_SHARE);
      if (rare.length > 0) unique = rare;
    }
    const rows = await this.pool.query({
      text: `SELECT p.term, p.chunk_id, p.tf, c.length FROM ${S}.postings p JOIN ${S}.chunks c ON c.id = p.chunk_id WHERE p.collection = $1 AND p.term = ANY($2::text[])`,
      values: [this.collection, unique],
      rowMode: "array",
    });
    const byTerm = new Map<string, Array<[number, number, number]>>();
    for (const [term, id, tf, length] of rows.rows as Array<[string, string, number, number]>) {
      let list = byTerm.get(term);
      if (!list) byTerm.set(term, (list = []));
      list.push([Number(id), tf, length]);
    }
    const { k1, b } = DEFAULT_BM25;
    const scores = new Map<number, number>();
    for (const list of byTerm.values()) {
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const [id, tf, length] of list) scores.set(id, (scores.get(id) ?? 0) + (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / avgLength)));
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
    return new Map(unique.map((term) => [term, Math.log(1 + (n - (df.get(term) ?? 0) + 0.5) / ((df.get(term) ?? 0) + 0.5))]));
  }

  async vectorScores(ids: number[], query: Float32Array, limit: number): Promise<Scored[]> {
    const space = await this.vectorSpace();
    if (!space || ids.length === 0) return [];
    let scored: Scored[];
    if (this.pgvector) {
      const rows = await this.pool.query({
        text: `SELECT chunk_id, -(embedding <#> $2::halfvec) FROM ${S}.vectors WHERE chunk_id = ANY($1::bigint[]) AND embedding IS NOT NULL`,
        values: [ids, `[${Array.from(query).join(",")}]`],
        rowMode: "array",
      });
      scored = (rows.rows as Array<[string, number]>).map(([id, score]) => ({ id: Number(id), score }));
    } else {
      const rows = await this.pool.query({ text: `SELECT chunk_id, v FROM ${S}.vectors WHERE chunk_id = ANY($1::bigint[]) AND v IS NOT NULL`, values: [ids], rowMode: "array" });
      scored = (rows.rows as Array<[string, Buffer]>).map(([id, v]) => ({ id: Number(id), score: dotStored(v, space.format, query) }));
    }
    return scored.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
  }

  /** The nearest chunks: pgvector's HNSW index (its search list widened to `limit`), else an exact scan in pages. */
  async scanVectors(query: Float32Array, limit: number): Promise<Scored[]> {
    const space = await this.vectorSpace();
    if (!space) return [];
    if (this.pgvector) {
      const d = query.length;
      return this.transaction(
        async (client) => {
          await client.query(`SET LOCAL hnsw.ef_search = ${Math.max(40, Math.min(1000, limit))}`);
          const rows = await client.query({
            text: `SELECT chunk_id, -(embedding::halfvec(${d}) <#> $1::halfvec(${d})) FROM ${S}.vectors
                   WHERE collection = '${this.collection}' ORDER BY embedding::halfvec(${d}) <#> $1::halfvec(${d}) LIMIT $2`,
            values: [`[${Array.from(query).join(",")}]`, limit],
            rowMode: "array",
          });
          return (rows.rows as Array<[string, number]>).map(([id, score]) => ({ id: Number(id), score }));
        },
        { write: false },
      );
    }
    const best: Scored[] = [];
    for (let after = 0; ; ) {
      const page = await this.pool.query({
        text: `SELECT chunk_id, v FROM ${S}.vectors WHERE collection = $1 AND chunk_id > $2 AND v IS NOT NULL ORDER BY chunk_id LIMIT 5000`,
        values: [this.collection, after],
        rowMode: "array",
      });
      for (const [id, v] of page.rows as Array<[string, Buffer]>) {
        const score = dotStored(v, space.format, query);
        if (best.length < limit || score > best[best.length - 1].score) {
          best.push({ id: Number(id), score });
          best.sort((a, b) => b.score - a.score || a.id - b.id);
          if (best.length > limit) best.pop();
        }
      }
      if (page.rows.length < 5000) break;
      after = Number((page.rows[page.rows.length - 1] as [string])[0]);
    }
    return best;
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
    if (this.pgvector) {
      // halfvec's text form is a JSON array of numbers.
      const rows = await this.pool.query({ text: `SELECT chunk_id, embedding::text FROM ${S}.vectors WHERE chunk_id = ANY($1::bigint[]) AND embedding IS NOT NULL`, values: [ids], rowMode: "array" });
      return new Map((rows.rows as Array<[string, string]>).map(([id, text]) => [Number(id), Float32Array.from(JSON.parse(text) as number[])]));
    }
    const rows = await this.pool.query({ text: `SELECT chunk_id, v FROM ${S}.vectors WHERE chunk_id = ANY($1::bigint[]) AND v IS NOT NULL`, values: [ids], rowMode: "array" });
    return new Map((rows.rows as Array<[string, Buffer]>).map(([id, v]) => [Number(id), decodeVector(v, space.format, OFFLINE_DIMENSIONS)]));
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }
}

function chunkOf(row: { id: string; path: string; idx: number; line: number; text: string }): StoredChunk {
  return { id: Number(row.id), path: row.path, index: row.idx, line: row.line, text: row.text };
}

/**
 * The schema at this workbench's version, in one transaction: made when missing, migrated when older,
 * refused (and left as it is) when newer. pgvector is used when the server has it (created here when
 * it may be). Returns whether vectors go into pgvector.
 */
async function migrate(pool: pg.Pool): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${S}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${S}.schema_version(version integer NOT NULL)`);
    await client.query(`LOCK TABLE ${S}.schema_version IN EXCLUSIVE MODE`);
    const found = await client.query(`SELECT version FROM ${S}.schema_version`);
    const version = (found.rows[0] as { version: number } | undefined)?.version ?? 0;
    if (version > POSTGRES_SCHEMA_VERSION) {
      throw new NewerSchemaError(
        `the knowledge store's schema is at version ${version}, newer than this workbench's ${POSTGRES_SCHEMA_VERSION}: update the workbench (the database was not changed)`,
      );
    }
    for (let next = version + 1; next <= POSTGRES_SCHEMA_VERSION; next++) await client.query(MIGRATIONS[next]);
    if (version === 0) await client.query(`INSERT INTO ${S}.schema_version(version) VALUES ($1)`, [POSTGRES_SCHEMA_VERSION]);
    else if (version < POSTGRES_SCHEMA_VERSION) await client.query(`UPDATE ${S}.schema_version SET version = $1`, [POSTGRES_SCHEMA_VERSION]);
    return usePgvector(client);
  });
}

/** Work on one connection in one transaction: committed when it returns, rolled back when it throws. */
async function inTransaction<T>(pool: pg.Pool, work: (client: Client) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** pgvector, when the server has it: the extension made if it may be, and the vectors table's column for it. */
async function usePgvector(client: Client): Promise<boolean> {
  const available = await client.query("SELECT installed_version FROM pg_available_extensions WHERE name = 'vector'");
  if (available.rowCount === 0) return false;
  if ((available.rows[0] as { installed_version: string | null }).installed_version === null) {
    await client.query("SAVEPOINT vector_extension");
    try {
      await client.query("CREATE EXTENSION IF NOT EXISTS vector");
    } catch {
      // Not allowed to make it (not the owner): vectors are stored beside the chunks instead.
      await client.query("ROLLBACK TO SAVEPOINT vector_extension");
      return false;
    }
  }
  await client.query(`ALTER TABLE ${S}.vectors ADD COLUMN IF NOT EXISTS embedding halfvec`);
  return true;
}
