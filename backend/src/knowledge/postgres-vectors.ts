/**
 * Where a collection's vectors live on a PostgreSQL server, chosen once when the store opens:
 * pgvector's `halfvec` column (with an HNSW index per collection and dimension) when the server has
 * the extension, else the embedded store's encoding in a bytea column beside the chunks, scored here.
 */
import type pg from "pg";
import type { VectorSpace } from "./index-store.js";
import { type Client, SCHEMA as S } from "./postgres-schema.js";
import { decodeVector, dotStored, encodeVector } from "./sparse-vector.js";
import { OFFLINE_DIMENSIONS } from "./offline-embedder.js";
import type { Scored } from "./top-k.js";

/** pgvector indexes `halfvec` with HNSW up to this many dimensions; above it, vector-only queries scan. */
const HNSW_MAX_DIMENSIONS = 4000;
/** Rows read at once by an exact scan of stored vectors. */
const SCAN_PAGE = 5000;

type Queryable = pg.Pool | Client;
export type VectorRow = { id: number; vector: Float32Array };

export interface VectorColumn {
  /** As the status says it: in pgvector, or stored beside the chunks. */
  readonly kind: "pgvector" | "stored";
  /** Vectors of chunks that exist, written (or rewritten) in the caller's transaction; how many. */
  write(client: Client, collection: string, space: VectorSpace, rows: VectorRow[]): Promise<number>;
  /** The similarity of each of these chunks' vectors to the query (in no order). */
  scores(db: Queryable, ids: number[], query: Float32Array, space: VectorSpace): Promise<Scored[]>;
  /** The collection's chunks nearest the query, best first, in the caller's transaction. */
  nearest(client: Client, collection: string, query: Float32Array, limit: number, space: VectorSpace): Promise<Scored[]>;
  /** These chunks' vectors as dense ones. */
  read(db: Queryable, ids: number[], space: VectorSpace): Promise<Map<number, Float32Array>>;
  /** A round's vectors are all in (pgvector builds the collection's index then). */
  complete(client: Client, collection: string): Promise<void>;
}

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
const queryLiteral = (query: Float32Array) => `[${Array.from(query).join(",")}]`;
const scoredRows = (rows: unknown[]) => (rows as Array<[string, number]>).map(([id, score]) => ({ id: Number(id), score }));

export const pgvectorColumn: VectorColumn = {
  kind: "pgvector",

  async write(client, collection, _space, rows) {
    if (rows.length === 0) return 0;
    const literals = rows.map((r) => vectorLiteral(r.vector));
    const written = await client.query(
      `INSERT INTO ${S}.vectors(chunk_id, collection, embedding)
       SELECT t.id, $1, CASE WHEN t.sparse THEN t.e::sparsevec::vector::halfvec ELSE t.e::halfvec END
       FROM unnest($2::bigint[], $3::text[], $4::bool[]) AS t(id, e, sparse) JOIN ${S}.chunks c ON c.id = t.id
       ON CONFLICT (chunk_id) DO UPDATE SET embedding = excluded.embedding, v = NULL`,
      [collection, rows.map((r) => r.id), literals, literals.map(isSparse)],
    );
    return written.rowCount ?? 0;
  },

  async scores(db, ids, query) {
    const rows = await db.query({
      text: `SELECT chunk_id, -(embedding <#> $2::halfvec) FROM ${S}.vectors WHERE chunk_id = ANY($1::bigint[]) AND embedding IS NOT NULL`,
      values: [ids, queryLiteral(query)],
      rowMode: "array",
    });
    return scoredRows(rows.rows);
  },

  /** The HNSW index, its search list widened to `limit`; the predicate is the partial index's, as it is. */
  async nearest(client, collection, query, limit) {
    const d = query.length;
    await client.query(`SET LOCAL hnsw.ef_search = ${Math.max(40, Math.min(1000, limit))}`);
    const rows = await client.query({
      text: `SELECT chunk_id, -(embedding::halfvec(${d}) <#> $1::halfvec(${d})) FROM ${S}.vectors
             WHERE collection = '${collection}' ORDER BY embedding::halfvec(${d}) <#> $1::halfvec(${d}) LIMIT $2`,
      values: [queryLiteral(query), limit],
      rowMode: "array",
    });
    return scoredRows(rows.rows);
  },

  async read(db, ids) {
    // halfvec's text form is a JSON array of numbers.
    const rows = await db.query({ text: `SELECT chunk_id, embedding::text FROM ${S}.vectors WHERE chunk_id = ANY($1::bigint[]) AND embedding IS NOT NULL`, values: [ids], rowMode: "array" });
    return new Map((rows.rows as Array<[string, string]>).map(([id, text]) => [Number(id), Float32Array.from(JSON.parse(text) as number[])]));
  },

  /**
   * The collection's HNSW index, made once its vectors are all in: pgvector builds an index over rows
   * already there far faster than it inserts them one by one (PGlite: 120 ms a chunk), and the hybrid
   * search rescoring BM25's candidates never needs it. A partial index on the cast, as pgvector
   * documents for vectors of several dimensions in one column; later writes keep it up to date.
   */
  async complete(client, collection) {
    const found = await client.query(`SELECT vector_dims(embedding) AS d FROM ${S}.vectors WHERE collection = $1 AND embedding IS NOT NULL LIMIT 1`, [collection]);
    const dimensions = (found.rows[0] as { d: number } | undefined)?.d;
    if (dimensions === undefined || dimensions > HNSW_MAX_DIMENSIONS) return;
    await client.query(
      `CREATE INDEX IF NOT EXISTS vectors_hnsw_${collection}_${dimensions} ON ${S}.vectors
       USING hnsw ((embedding::halfvec(${dimensions})) halfvec_ip_ops) WHERE collection = '${collection}'`,
    );
  },
};

export const storedColumn: VectorColumn = {
  kind: "stored",

  async write(client, collection, space, rows) {
    if (rows.length === 0) return 0;
    const written = await client.query(
      `INSERT INTO ${S}.vectors(chunk_id, collection, v)
       SELECT t.id, $1, t.v FROM unnest($2::bigint[], $3::bytea[]) AS t(id, v) JOIN ${S}.chunks c ON c.id = t.id
       ON CONFLICT (chunk_id) DO UPDATE SET v = excluded.v`,
      [collection, rows.map((r) => r.id), rows.map((r) => encodeVector(r.vector, space.format))],
    );
    return written.rowCount ?? 0;
  },

  async scores(db, ids, query, space) {
    const rows = await db.query({ text: `SELECT chunk_id, v FROM ${S}.vectors WHERE chunk_id = ANY($1::bigint[]) AND v IS NOT NULL`, values: [ids], rowMode: "array" });
    return (rows.rows as Array<[string, Buffer]>).map(([id, v]) => ({ id: Number(id), score: dotStored(v, space.format, query) }));
  },

  /** An exact scan, a page at a time, keeping the best `limit`. */
  async nearest(client, collection, query, limit, space) {
    const best: Scored[] = [];
    for (let after = 0; ; ) {
      const page = await client.query({
        text: `SELECT chunk_id, v FROM ${S}.vectors WHERE collection = $1 AND chunk_id > $2 AND v IS NOT NULL ORDER BY chunk_id LIMIT ${SCAN_PAGE}`,
        values: [collection, after],
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
      if (page.rows.length < SCAN_PAGE) break;
      after = Number((page.rows[page.rows.length - 1] as [string])[0]);
    }
    return best;
  },

  async read(db, ids, space) {
    const rows = await db.query({ text: `SELECT chunk_id, v FROM ${S}.vectors WHERE chunk_id = ANY($1::bigint[]) AND v IS NOT NULL`, values: [ids], rowMode: "array" });
    return new Map((rows.rows as Array<[string, Buffer]>).map(([id, v]) => [Number(id), decodeVector(v, space.format, OFFLINE_DIMENSIONS)]));
  },

  async complete() {},
};
