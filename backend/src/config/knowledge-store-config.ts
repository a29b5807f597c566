/**
 * The knowledge store settings (KNOWLEDGE_STORE_URL, KNOWLEDGE_COLLECTION) checked as they are read. The URL
 * holds the database's password: no error repeats it.
 */
import { KNOWLEDGE_COLLECTION_NAME } from "@mini-openclaw/protocol";

/** Checks a `postgres://` or `postgresql://` URL; the error never repeats the URL (it may hold a password). */
export function checkStoreUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("KNOWLEDGE_STORE_URL is not a URL (expected postgres://user:password@host:5432/database)");
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new Error(`KNOWLEDGE_STORE_URL must start with postgres:// (it starts with ${parsed.protocol}//)`);
  }
  return url;
}

export function checkCollection(name: string): string {
  if (!KNOWLEDGE_COLLECTION_NAME.test(name)) throw new Error(`KNOWLEDGE_COLLECTION "${name}" must be 1-40 lower-case letters, digits or _, starting with a letter`);
  return name;
}
