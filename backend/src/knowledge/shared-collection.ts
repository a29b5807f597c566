/**
 * A knowledge base's hold on its collection on a PostgreSQL server, which other workbenches may share:
 * the lease (renewed, or taken when free or its holder's heartbeat stopped), who indexes and how far,
 * whether the server can be used now and why not, and when to try it again (a wait doubling from 1 s
 * to 30 s). The knowledge base asks it "do I hold the lease", "who indexes", "is it reachable", and
 * does the indexing that follows.
 */
import type pg from "pg";
import type { KnowledgeStatusReply } from "@mini-openclaw/protocol";
import { UserError } from "../lib/user-error.js";
import { IndexLease, type LeaseProgress } from "./index-lease.js";
import { describeStore, type StoreLocation } from "./store-location.js";
import { hostname } from "node:os";
import { join } from "node:path";

/** Waits between tries to reach an unreachable server store: doubling from the first to the last. */
const RETRY_FIRST_MS = 1000;
const RETRY_LAST_MS = 30_000;

type ServerLocation = Extract<StoreLocation, { kind: "postgres" }>;
type StoreStatus = KnowledgeStatusReply["store"];

export class SharedCollection {
  private lease: IndexLease | null = null;
  /** Who indexes the collection, as its lease row says (null: no one, or not read yet). */
  indexer: StoreStatus["indexer"] = null;
  /** Why the server cannot be used now (unreachable, a newer schema); null once it answered. */
  error: string | null = null;
  private retryMs = RETRY_FIRST_MS;
  private nextTry = 0;
  /** Where the store is, as shown: the URL without its password. */
  private readonly shown: string;
  /** This workbench's knowledge folder, as the lease row and the notes name it (`host:/path`). */
  private readonly folder: string;

  constructor(
    private readonly location: ServerLocation,
    private readonly leaseMs: number,
    dataRoot: string,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {
    this.shown = describeStore(location, dataRoot);
    this.folder = `${hostname()}:${join(dataRoot, "knowledge")}`;
  }

  /** Connected: the lease is kept through this pool. */
  attach(pool: pg.Pool): void {
    this.lease = new IndexLease(pool, this.location.collection, this.location.holder, this.leaseMs, this.folder);
  }

  /**
   * What a shared collection holds, said in each workbench's status: the holder's folder only. A
   * workbench whose folder is another one's searches documents it does not have, and its own are left
   * out until the lease passes to it (then the index follows its folder, and the others' documents go).
   */
  private note(): string | undefined {
    const indexer = this.indexer;
    if (!indexer) return undefined;
    if (indexer.self) {
      return `This collection holds the documents of this workbench's knowledge folder (${this.folder}). Other workbenches on it search these; documents only in their own folders are not indexed, and if one of them takes the collection over, the index follows its folder instead.`;
    }
    if (indexer.folder === undefined || indexer.folder === this.folder) return undefined;
    return `This collection holds the documents of ${indexer.folder} (indexed by ${indexer.host}). This workbench's knowledge folder (${this.folder}) is not indexed: documents only here are left out of search, and those of ${indexer.folder} are found instead.`;
  }

  detach(): void {
    this.lease = null;
  }

  /** Whether a try at the server is due (none while a wait after a failure runs). */
  due(): boolean {
    return Date.now() >= this.nextTry;
  }

  /** The heartbeat: renews the lease this workbench holds, or takes it when it may. True when it holds it now. */
  async beat(holding: boolean, progress: LeaseProgress): Promise<boolean> {
    const lease = this.lease!;
    return holding ? lease.renew(progress) : lease.acquire(progress);
  }

  /** Reads who indexes the collection now. */
  async readIndexer(): Promise<void> {
    this.indexer = (await this.lease?.indexer()) ?? null;
  }

  /** The server answered: no error, the next failure waits the first wait again. True when it had been failing. */
  reached(): boolean {
    const wasDown = this.error !== null;
    this.error = null;
    this.retryMs = RETRY_FIRST_MS;
    return wasDown;
  }

  /** The server failed: said in the status, tried again after a wait that doubles. */
  failed(err: Error): void {
    if (this.error === null) this.log.warn({ store: this.shown, reason: err.message }, "knowledge store unreachable; retrying");
    this.error = err.message;
    this.nextTry = Date.now() + this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_LAST_MS);
  }

  /** The lease passed to another workbench while this one held it. */
  lost(): void {
    this.log.warn({ collection: this.location.collection }, "knowledge lease passed to another workbench; searching only");
  }

  /** Gives the lease up (a clean stop): another workbench may take it at once. */
  async release(): Promise<void> {
    await this.lease?.release().catch(() => {});
  }

  /** An error for a search the server cannot answer now, naming the store (its password left out). */
  unavailable(err: Error): UserError {
    return new UserError("unavailable", `The knowledge store (${this.shown}) cannot be reached: ${err.message}. It is tried again in the background; everything else works.`);
  }

  /** Refuses a rebuild this workbench cannot do: the server unreachable, or another workbench indexing the collection. */
  checkRebuild(connected: boolean, holding: boolean): void {
    if (this.error !== null || !connected) throw this.unavailable(new Error(this.error ?? "not connected yet"));
    if (!holding) {
      const by = this.indexer ? ` (${this.indexer.host}, pid ${this.indexer.pid})` : "";
      throw new UserError("conflict", `Another workbench${by} indexes this collection: rebuild it there, or stop it and its lease passes here.`);
    }
  }

  status(connected: boolean, pgvector: boolean): StoreStatus {
    return {
      kind: "postgres",
      location: this.shown,
      collection: this.location.collection,
      vectors: pgvector ? "pgvector" : "stored",
      connected: connected && this.error === null,
      error: this.error,
      indexer: this.indexer,
      ...(this.note() ? { note: this.note() } : {}),
    };
  }
}
