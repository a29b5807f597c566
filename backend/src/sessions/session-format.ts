/**
 * Reading a session file: every line is validated against the version-2 entry union; lines written
 * before version 2 (everything ahead of the first `header`) go through the migration first. A line
 * that is not JSON, or not an entry, is counted and left out, never trusted: the file is in the data
 * root, which the agent's tools can write.
 */
import type { SessionEntry } from "@mini-openclaw/protocol";
import { z } from "zod";
import { migrateV1, v1EntrySchema } from "./migrate-v1.js";

const ts = z.string();
const step = z.number().int().nonnegative();

/** The stored chat events, checked field by field (unknown extra fields are kept, for newer writers). */
const storedEventSchema: z.ZodType<SessionEventValue> = z.lazy(() =>
  z.discriminatedUnion("type", [
    z.looseObject({ type: z.literal("thought"), content: z.string() }),
    z.looseObject({ type: z.literal("token"), content: z.string() }),
    z.looseObject({ type: z.literal("late_thought"), chars: z.number().int().positive() }),
    z.looseObject({ type: z.literal("tool_call"), id: z.string(), name: z.string(), input: z.unknown(), step, started_at: z.number() }),
    z.looseObject({
      type: z.literal("tool_result"),
      id: z.string(),
      name: z.string(),
      output: z.string(),
      ok: z.boolean(),
      duration_ms: z.number(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
    z.looseObject({ type: z.literal("skill"), name: z.string(), location: z.string(), allowed_tools: z.array(z.string()).optional() }),
    z.looseObject({ type: z.literal("prefix"), changed: z.array(z.string()) }),
    z.looseObject({ type: z.literal("compaction"), turns: z.number(), summary: z.string(), skills: z.array(z.string()), forced: z.boolean() }),
    z.looseObject({ type: z.literal("delegate"), call_id: z.string(), agent: z.string(), depth: z.number(), event: z.lazy(() => chatEventSchema) }),
    z.looseObject({ type: z.literal("usage"), input_tokens: z.number(), output_tokens: z.number(), cached_tokens: z.number() }),
    z.looseObject({ type: z.literal("final"), content: z.string(), duration_ms: z.number() }),
    z.looseObject({ type: z.literal("error"), message: z.string(), code: z.string() }),
    z.looseObject({
      type: z.literal("approval_request"),
      id: z.string(),
      call_id: z.string(),
      tool: z.string(),
      subject: z.string(),
      sandbox: z.string(),
      proposal: z.string(),
      expires_at: z.number(),
    }),
    z.looseObject({
      type: z.literal("approval"),
      id: z.string(),
      call_id: z.string(),
      tool: z.string(),
      decision: z.enum(["approved", "denied"]),
      by: z.enum(["user", "rule", "timeout", "stop"]),
      at: z.number(),
    }),
  ]),
) as never;
type SessionEventValue = Extract<SessionEntry, { type: "event" }>["event"];

/** A sub-agent's events may include `session` (never written today, but valid as a chat event). */
const chatEventSchema = z.union([z.looseObject({ type: z.literal("session"), session_id: z.string(), created: z.boolean() }), storedEventSchema]);

const skillRecord = z.object({ name: z.string(), location: z.string(), content: z.string() });

export const entrySchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("header"), ts, v: z.literal(2) }),
  z.looseObject({ type: z.literal("snapshot"), ts, content: z.string(), roles: z.string().optional() }),
  z.looseObject({ type: z.literal("user"), ts, content: z.string(), model_content: z.string().optional(), tools: z.literal(false).optional() }),
  z.looseObject({ type: z.literal("event"), ts, event: storedEventSchema }),
  z.looseObject({ type: z.literal("compaction"), ts, content: z.string(), covers_turns: z.number().int().nonnegative(), skills: z.array(skillRecord), forced: z.boolean() }),
  z.looseObject({ type: z.literal("review"), ts, content: z.string(), advice: z.string() }),
  z.looseObject({
    type: z.literal("meta"),
    ts,
    title: z.string().max(200).nullable().optional(),
    pinned: z.boolean().optional(),
    leaf: z.number().int().positive().optional(),
    edit: z.object({ turn: z.number().int().positive(), content: z.string() }).optional(),
  }),
]);

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
    if (!parsed.success) corruptLines++;
    else if (parsed.data.type !== "header") entries.push(parsed.data as SessionEntry);
  });
  const migrated = v1.length > 0;
  return { entries: migrated ? [...migrateV1(v1 as never), ...entries] : entries, migrated, hasHeader, tornLastLine, corruptLines };
}
