/**
 * Who indexes a shared collection: a lease row in the database with a heartbeat. One workbench holds
 * it and indexes; the others search what is committed, read its progress from the row, and take the
 * lease over once its heartbeat is older than the lease's length (its holder died or lost the
 * database). A row, not an advisory lock: a lock is tied to a session, and some servers (PGlite's
 * socket server) run every client in one session, where a dead client's lock is never released.
 */
import type pg from "pg";
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { KnowledgeStatusReply } from "@mini-openclaw/protocol";

type Indexer = NonNullable<KnowledgeStatusReply["store"]["indexer"]>;
export type LeaseProgress = Indexer["progress"];

/** A workbench's lease id: host, process and a random part (a restarted process is another holder). */
export const newLeaseHolder = () => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

export class IndexLease {
  constructor(
    private readonly pool: pg.Pool,
    private readonly collection: string,
    readonly holder: string,
    /** How long a heartbeat counts: past it, the lease may be taken over. */
    readonly lengthMs: number,
    /** The knowledge folder this workbench indexes (`host:/path`), kept in the row beside its progress. */
    private readonly folder: string,
  ) {}

  /** Takes the lease when it is free, expired or already ours; true when this workbench holds it now. */
  async acquire(progress: LeaseProgress): Promise<boolean> {
    const taken = await this.pool.query(
      `INSERT INTO mini_openclaw.leases(collection, holder, host, pid, heartbeat, progress) VALUES ($1, $2, $3, $4, now(), $5)
       ON CONFLICT (collection) DO UPDATE SET holder = excluded.holder, host = excluded.host, pid = excluded.pid, heartbeat = now(), progress = excluded.progress
       WHERE mini_openclaw.leases.holder = excluded.holder OR mini_openclaw.leases.heartbeat < now() - make_interval(secs => $6)`,
      [this.collection, this.holder, hostname(), process.pid, JSON.stringify({ ...progress, folder: this.folder }), this.lengthMs / 1000],
    );
    return taken.rowCount === 1;
  }

  /** The heartbeat, with how far indexing is; false when the lease is no longer ours. */
  async renew(progress: LeaseProgress): Promise<boolean> {
    const renewed = await this.pool.query(`UPDATE mini_openclaw.leases SET heartbeat = now(), progress = $3 WHERE collection = $1 AND holder = $2`, [
      this.collection,
      this.holder,
      JSON.stringify({ ...progress, folder: this.folder }),
    ]);
    return renewed.rowCount === 1;
  }

  /** The workbench holding the lease (null when none does, or its heartbeat has run out). */
  async indexer(): Promise<Indexer | null> {
    const found = await this.pool.query(
      `SELECT holder, host, pid, heartbeat, progress FROM mini_openclaw.leases WHERE collection = $1 AND heartbeat >= now() - make_interval(secs => $2)`,
      [this.collection, this.lengthMs / 1000],
    );
    const row = found.rows[0] as { holder: string; host: string; pid: number; heartbeat: Date; progress: LeaseProgress & { folder?: unknown } } | undefined;
    if (!row) return null;
    const { folder, ...progress } = row.progress;
    return { host: row.host, pid: row.pid, self: row.holder === this.holder, heartbeat: new Date(row.heartbeat).toISOString(), progress, ...(typeof folder === "string" ? { folder } : {}) };
  }

  /** Gives the lease up (a clean stop): another workbench may take it at once. */
  async release(): Promise<void> {
    await this.pool.query(`DELETE FROM mini_openclaw.leases WHERE collection = $1 AND holder = $2`, [this.collection, this.holder]);
  }
}
