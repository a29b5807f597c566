/**
 * Reading a session file: every line is validated against the version-2 entry union (the protocol's
 * schemas, the ones the frontend's types come from); lines written
 * before version 2 (everything ahead of the first `header`) go through the migration first. A line
 * that is not JSON, or not an entry, is counted and left out, never trusted: the file is in the data
 * root, which the agent's tools can write. An event whose only fault is an id no clock hands out (past
 * 2^53, written by a version whose clock an import could set) keeps its event, without the id.
 */
import { type SessionEntry, sessionEntrySchema as entrySchema } from "@mini-openclaw/protocol";
import { migrateV1, v1EntrySchema } from "./migrate-v1.js";

export interface ParsedSession {
  /** Version-2 entries, the migrated version-1 ones first; no `header` entries. */
  entries: SessionEntry[];
  /** The file holds lines written before version 2 (they were migrated on reading). */
  migrated: boolean;
  /** The file has a `header`: appends can go on in version 2 without another. */
  hasHeader: boolean;
  tornLastLine: boolean;
  corruptLines: number;
}

/** An event line with its `id` / `first_id` taken out when they are not exact positive integers; null when there is nothing to take out. */
function withoutUnsafeIds(value: unknown): Record<string, unknown> | null {
  if (typeof value !== "object" || value === null || (value as { type?: unknown }).type !== "event") return null;
  const entry = { ...(value as Record<string, unknown>) };
  let changed = false;
  for (const key of ["id", "first_id"]) {
    if (key in entry && !(Number.isSafeInteger(entry[key]) && (entry[key] as number) > 0)) {
      delete entry[key];
      changed = true;
    }
  }
  return changed ? entry : null;
}

export function parseSessionText(text: string): ParsedSession {
  const lines = text.split("\n");
  const endsClean = text.endsWith("\n") || text === "";
  const v1: unknown[] = [];
  const entries: SessionEntry[] = [];
  let hasHeader = false;
  let tornLastLine = false;
  let corruptLines = 0;
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (i === lines.length - 1 && !endsClean) tornLastLine = true;
      else corruptLines++;
      return;
    }
    if (!hasHeader) {
      const header = entrySchema.safeParse(value);
      if (header.success && header.data.type === "header") {
        hasHeader = true;
        return;
      }
      const old = v1EntrySchema.safeParse(value);
      if (old.success) v1.push(old.data);
      else corruptLines++;
      return;
    }
    const parsed = entrySchema.safeParse(value);
    if (!parsed.success) {
      const salvaged = withoutUnsafeIds(value);
      const second = salvaged ? entrySchema.safeParse(salvaged) : null;
      if (second?.success && second.data.type !== "header") entries.push(second.data as SessionEntry);
      else corruptLines++;
    }
    else if (parsed.data.type !== "header") entries.push(parsed.data as SessionEntry);
  });
  const migrated = v1.length > 0;
  return { entries: migrated ? [...migrateV1(v1 as never), ...entries] : entries, migrated, hasHeader, tornLastLine, corruptLines };
}
