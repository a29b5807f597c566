/**
 * Where the knowledge index lives: the embedded SQLite file, or a PostgreSQL server
 * (`KNOWLEDGE_STORE_URL`) in one collection of it. The URL carries the password: it is only ever
 * shown through `describeStore`, which leaves the password (and any query string) out.
 */
import { createHash } from "node:crypto";
import { hostname } from "node:os";

export type StoreLocation =
  | { kind: "sqlite"; file: string }
  /** `holder`: this workbench's lease id; its writes are refused once another workbench holds the lease. */
  | { kind: "postgres"; url: string; collection: string; holder: string };

/** The server as shown to the user and in logs: `postgres://user@host:port/database`, never the password. */
export function describeStore(location: StoreLocation, dataRoot: string): string {
  if (location.kind === "sqlite") return location.file.startsWith(dataRoot) ? location.file.slice(dataRoot.length + 1) : location.file;
  const url = new URL(location.url);
  const user = url.username ? `${decodeURIComponent(url.username)}@` : "";
  return `postgres://${user}${url.hostname}:${url.port || "5432"}${url.pathname === "/" ? "" : url.pathname}`;
}

/**
 * The default collection: the knowledge folder's identity (this machine and the folder's real path),
 * so two workbenches over one folder share an index and two folders never mix. Workbenches on
 * different machines that should share one set `KNOWLEDGE_COLLECTION`.
 */
export function defaultCollection(knowledgeFolder: string): string {
  return `kb_${createHash("sha256").update(`${hostname()}\n${knowledgeFolder}`).digest("hex").slice(0, 16)}`;
}
