/**
 * The documents the index holds (indexed, or failed with a reason), as the store's documents table
 * says, kept in memory for the status, the list and uploads' answers: read whole at open and after a
 * rebuild, changed one document at a time as the indexer commits.
 */
import type { KnowledgeDocument } from "@mini-openclaw/protocol";
import type { DocumentRow, IndexStore } from "./index-store.js";

export class IndexedDocuments {
  private rows = new Map<string, DocumentRow>();
  private chunkTotal = 0;
  /** The store's `updated_at` as last read or written: another workbench's commit changes it. */
  private updatedAt: string | null = null;

  get size(): number {
    return this.rows.size;
  }

  get chunks(): number {
    return this.chunkTotal;
  }

  get lastUpdate(): string | null {
    return this.updatedAt;
  }

  get(path: string): DocumentRow | undefined {
    return this.rows.get(path);
  }

  paths(): string[] {
    return [...this.rows.keys()];
  }

  /** The documents table read again. */
  async read(reader: IndexStore): Promise<void> {
    this.rows = new Map((await reader.documents()).map((row) => [row.path, row]));
    this.chunkTotal = [...this.rows.values()].reduce((sum, row) => sum + row.chunks, 0);
    this.updatedAt = await reader.meta("updated_at");
  }

  /** Whether another workbench has written since the last read. */
  async changedIn(reader: IndexStore): Promise<boolean> {
    return (await reader.meta("updated_at")) !== this.updatedAt;
  }

  /** A document the indexer committed (or removed). */
  committed(row: DocumentRow | { path: string; removed: true }): void {
    const before = this.rows.get(row.path);
    this.chunkTotal -= before?.chunks ?? 0;
    if ("removed" in row) this.rows.delete(row.path);
    else {
      this.rows.set(row.path, row);
      this.chunkTotal += row.chunks;
    }
    this.updatedAt = new Date().toISOString();
  }

  /** As the list shows them: indexed, or failed with the reason. */
  listed(): KnowledgeDocument[] {
    return [...this.rows.values()].map((doc) =>
      doc.reason !== null ? { path: doc.path, state: "failed", chunks: 0, bytes: doc.size, reason: doc.reason } : { path: doc.path, state: "indexed", chunks: doc.chunks, bytes: doc.size },
    );
  }

  /** The documents that failed, with why. */
  failed(): Array<{ path: string; reason: string }> {
    return [...this.rows.values()].flatMap((doc) => (doc.reason !== null ? [{ path: doc.path, reason: doc.reason }] : []));
  }
}
