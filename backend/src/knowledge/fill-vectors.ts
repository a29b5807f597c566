/**
 * Vectors for the chunks that have none: the offline embedder's computed in the indexer's worker, an
 * endpoint's fetched from here and written by the worker, 256 chunks at a time. Throws when the
 * embedder or the store fails (the caller keeps BM25 answering and tries again at the next sync).
 */
import type { Embedder } from "./embedders.js";
import type { IndexStore, VectorSpace } from "./index-store.js";
import type { IndexWorker } from "./index-worker.js";
import type { StoreLocation } from "./store-location.js";

export interface VectorFilling {
  worker: IndexWorker;
  location: StoreLocation;
  embedder: Embedder;
  space: VectorSpace;
  reader: IndexStore;
  /** The knowledge base closed meanwhile: stop between batches. */
  closed: () => boolean;
}

export async function fillMissingVectors({ worker, location, embedder, space, reader, closed }: VectorFilling): Promise<void> {
  if (embedder.mode === "offline") {
    while (!closed()) {
      const reply = await worker.run({ kind: "embed-offline", store: location, space, batch: 256 });
      if (!reply.ok) throw new Error(reply.reason);
      if (!reply.stored) return;
    }
    return;
  }
  while (!closed()) {
    const missing = await reader.missingVectors(256);
    if (missing.length === 0) {
      await worker.run({ kind: "vectors", store: location, space, rows: [] });
      return;
    }
    const vectors = await embedder.embedDocuments(missing.map((c) => c.text));
    const reply = await worker.run({ kind: "vectors", store: location, space, rows: missing.map((c, i) => ({ id: c.id, vector: vectors[i] })) });
    if (!reply.ok) throw new Error(reply.reason);
    if (!reply.stored) return; // the embedder changed meanwhile
  }
}
