import type { IndexStore } from "./index-store.js";
import { KnowledgeStore } from "./knowledge-store.js";
import { PostgresStore } from "./postgres-store.js";
import type { StoreLocation } from "./store-location.js";

/** The index at this location, opened (the server's schema made or migrated). */
export async function openIndexStore(location: StoreLocation): Promise<IndexStore> {
  if (location.kind === "sqlite") return KnowledgeStore.open(location.file);
  return PostgresStore.open({ url: location.url, collection: location.collection, holder: location.holder });
}
