/**
 * The knowledge store's schema on a PostgreSQL server: its name, its versions and their migrations,
 * and the one way work runs in a transaction there. The workbench makes and migrates it (never by
 * hand); a database at a later version than this workbench knows is refused and left as it is.
 */
import type pg from "pg";

/** The schema every table lives in; one collection's rows are kept apart from another's by a column. */
export const SCHEMA = "mini_openclaw";
const S = SCHEMA;
/** The schema version this workbench writes; a database at a later one is refused, never altered. */
export const POSTGRES_SCHEMA_VERSION = 2;

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
  // BM25 reads a term's postings and each chunk's length from the indexes alone (index-only scans): at
  // 200k chunks a query of common words fetched ~600k scattered heap pages through the plain keys (5.3 s).
  2: `
ALTER TABLE ${S}.postings DROP CONSTRAINT postings_pkey, ADD PRIMARY KEY (collection, term, chunk_id) INCLUDE (tf);
CREATE INDEX chunk_lengths ON ${S}.chunks(id) INCLUDE (length);
`,
};

/** The database is at a schema this workbench does not know: refused, not altered. */
export class NewerSchemaError extends Error {}

export type Client = pg.PoolClient;

/** Work on one connection in one transaction: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: Client) => Promise<T>): Promise<T> {
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

/**
 * The schema at this workbench's version, in one transaction: made when missing, migrated when older,
 * refused (and left as it is) when newer. pgvector is used when the server has it (created here when
 * it may be). Returns whether vectors go into pgvector.
 */
export async function migrate(pool: pg.Pool): Promise<boolean> {
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
