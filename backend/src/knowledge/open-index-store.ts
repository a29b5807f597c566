import type { IndexStore } from "./index-store.js";
import { SqliteIndexStore } from "./sqlite-index-store.js";
import { PostgresIndexStore } from "./postgres-index-store.js";
import type { StoreLocation } from "./store-location.js";

/** The index at this location, opened (the server's schema made or migrated). */
export async function openIndexStore(location: StoreLocation): Promise<IndexStore> {
  if (location.kind === "sqlite") return SqliteIndexStore.open(location.file);
  return PostgresIndexStore.open({ url: location.url, collection: location.collection, holder: location.holder });
}
