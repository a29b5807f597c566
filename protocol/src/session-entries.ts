/**
 * One line of a session file (`sessions/<id>.jsonl`), format version 2: a tagged union on `type`,
 * each entry a zod schema with its TS type inferred. The backend validates every line it reads with
 * these (the file is in the data root, which the agent's tools can write); the frontend replays them.
 *
 * A session is stored once, as what happened: the user's messages as sent, and every event of a turn
 * as it streamed (`event` entries, each with the id its SSE frame carried; pieces of text that
 * streamed back to back are joined, at most a second's worth per line). Everything else is derived by
 * one function each: the history the model is sent (backend `context/session-history.ts`) and the
 * Stage's replay (frontend `turn-model.ts`, the same `applyEvent` that applied the live stream).
 *
 * Turns are named by ids stored in their entries (`turn`), never by their position in the file, so a
 * line that cannot be read renumbers nothing. Lines written before turn ids (no `turn` field) are
 * numbered in file order, after the highest id seen so far.
 *
 * A file starts with a `header`. A file written before version 2 has none; when a turn is added to
 * such a file, a `header` is appended first: lines before it are version 1 and are read through the
 * backend's migration (`sessions/session-format.ts`).
 */
import { z } from "zod";
import { attachmentSchema } from "./api/attachments-api.js";
import { replayOfSchema } from "./api/replay-api.js";
import { type ChatEvent, chatEventSchema, type ErrorEvent, type FinalEvent, requestUsageSchema } from "./chat-events.js";

const ts = z.string();
const turnId = z.number().int().positive();

/** Version 2 starts here: the first line of a new file, or the line after a version-1 file's last. */
export const headerEntrySchema = z.object({
  type: z.literal("header"),
  ts,
  /** The format version of the lines that follow. */
  v: z.literal(2),
});

/** An MCP server's tool as a session offers it to the model, fixed when the session started. */
export const mcpToolRecordSchema = z.object({
  /** The name the model calls: `mcp__<server>__<tool>`. */
  name: z.string(),
  server: z.string(),
  /** The tool's own name on its server. */
  tool: z.string(),
  description: z.string(),
  /** Its JSON Schema, as the server gave it. */
  parameters: z.record(z.string(), z.unknown()),
  /** The server marked it `readOnlyHint`: it runs unasked by default. */
  read_only: z.boolean(),
});

/** The MCP tools a session was given when it started (the cache-stable prefix), and what was left out and why. */
export const mcpCatalogSchema = z.object({
  tools: z.array(mcpToolRecordSchema),
  /** Servers with resources (`mcp_read_resource` reads them). */
  resources: z.array(z.string()),
  /** Servers not connected when the session started (the agent is told). */
  left_out: z.array(z.object({ server: z.string(), reason: z.string() })),
  /** Tools left out for their schema (or their number), with the reason. */
  skipped_tools: z.array(z.object({ server: z.string(), tool: z.string(), reason: z.string() })),
});

/** The skills snapshot the session started with (its system prompt uses it for its whole life). */
export const snapshotEntrySchema = z.object({
  type: z.literal("snapshot"),
  ts,
  content: z.string(),
  /** The roles the `delegate` tool lists for the session's whole life. */
  roles: z.string().optional(),
  /** The MCP tools the session has for its whole life (absent: none configured when it started). */
  mcp: mcpCatalogSchema.optional(),
});

/** The user's message: the first entry of every turn. */
export const userEntrySchema = z.object({
  type: z.literal("user"),
  ts,
  /** The turn's id (1, 2, ... in the order turns started). Absent in files written before turn ids. */
  turn: turnId.optional(),
  content: z.string(),
  /** For a slash command: the message the model was sent (the skill, expanded). */
  model_content: z.string().optional(),
  /** The turn ran without tools (the user chose to chat without them, for a model that takes none). */
  tools: z.literal(false).optional(),
  /** Set on reading when a later `meta` edit replaced `content` (never written). */
  edited: z.literal(true).optional(),
  /**
   * The turn this one follows (0: the start). A session is a tree: an edited message or a regenerated
   * answer is a new turn whose parent is an earlier one. Absent (files before branches): the turn
   * before it in the file.
   */
  parent: z.number().int().nonnegative().optional(),
  /** Files and images sent with the message, by reference (their bytes are in the session's attachment store). */
  attachments: z.array(attachmentSchema).optional(),
  /** Who sent it when not the user: the memory helper (a consolidation run, Save as skill); its usage is counted apart. */
  by: z.literal("consolidation").optional(),
});

/** Every event a turn streamed except `session` (which only names the session to the client). */
export type StoredEvent = Exclude<ChatEvent, { type: "session" }>;
const storedEventSchema = chatEventSchema.refine((event) => event.type !== "session", "a session event is never stored") as z.ZodType<StoredEvent>;

export const eventEntrySchema = z.object({
  type: z.literal("event"),
  ts,
  /** The turn the event belongs to. */
  turn: turnId.optional(),
  /** The id of the SSE frame the event went out in (for joined text: the last piece's). */
  id: z.number().int().positive().optional(),
  /** Joined text: the id of the first piece in this line. */
  first_id: z.number().int().positive().optional(),
  event: storedEventSchema,
});

/** A skill's text as the model was given it; kept whole across compactions. */
export const loadedSkillRecordSchema = z.object({ name: z.string(), location: z.string(), content: z.string() });

/** A summary that stands in for the session's first `covers_turns` turns in what the model is sent. */
export const compactionEntrySchema = z.object({
  type: z.literal("compaction"),
  ts,
  turn: turnId.optional(),
  content: z.string(),
  covers_turns: z.number().int().nonnegative(),
  /** The skills loaded in those turns, carried over whole. */
  skills: z.array(loadedSkillRecordSchema),
  /** Asked for by the user rather than forced by the context budget. */
  forced: z.boolean(),
  /** What the summary's model request used. */
  usage: requestUsageSchema.optional(),
});

/** The reviewer's look at the turn before it: `advice` goes to the next turn's model request, `content` to no model. */
export const reviewEntrySchema = z.object({
  type: z.literal("review"),
  ts,
  /** The turn it reviewed. */
  turn: turnId.optional(),
  content: z.string(),
  advice: z.string(),
  /** What the reviewer's model request used (counted with the turn it reviewed, apart). */
  usage: requestUsageSchema.optional(),
});

/**
 * The user's settings for the session (rename, pin, branch, correction), appended when changed; for
 * each field the last entry that sets it wins. Not part of any turn: no model and no replay sees it.
 */
export const metaEntrySchema = z.object({
  type: z.literal("meta"),
  ts,
  /** A title the user gave; `null` goes back to the one made from the first message. */
  title: z.string().max(200).nullable().optional(),
  pinned: z.boolean().optional(),
  /** The user switched branches: the current branch ends at this turn (0: before the first; until a newer turn or switch). */
  leaf: z.number().int().nonnegative().optional(),
  /** Files the user put back (revert, rewind) since the last turn: the agent is told in its next request. */
  reverted: z.array(z.string()).optional(),
  /**
   * The user corrected a message without running it again: turn `turn`'s message reads `content`
   * from here on, for the model and on screen (the original line stays in the file).
   */
  edit: z.object({ turn: turnId, content: z.string() }).optional(),
  /** The session's model profile from here on (null: the default). */
  model: z.string().max(100).nullable().optional(),
  /** The session is a replay of that turn (its history copied, the turn run again with these choices). */
  replay_of: replayOfSchema.optional(),
});

export const sessionEntrySchema = z.discriminatedUnion("type", [
  headerEntrySchema,
  snapshotEntrySchema,
  userEntrySchema,
  eventEntrySchema,
  compactionEntrySchema,
  reviewEntrySchema,
  metaEntrySchema,
]).meta({ id: "SessionEntry" });

export type HeaderEntry = z.infer<typeof headerEntrySchema>;
export type SnapshotEntry = z.infer<typeof snapshotEntrySchema>;
export type McpToolRecord = z.infer<typeof mcpToolRecordSchema>;
export type McpCatalog = z.infer<typeof mcpCatalogSchema>;
export type UserEntry = z.infer<typeof userEntrySchema>;
export type EventEntry = z.infer<typeof eventEntrySchema>;
export type LoadedSkillRecord = z.infer<typeof loadedSkillRecordSchema>;
export type CompactionEntry = z.infer<typeof compactionEntrySchema>;

/** The `compaction` event a compaction entry is shown as: live when it happens, and when its session is read again. */
export const compactionEventOf = (entry: CompactionEntry): ChatEvent => ({
  type: "compaction",
  turns: entry.covers_turns,
  summary: entry.content,
  skills: entry.skills.map((s) => s.name),
  forced: entry.forced,
});
export type ReviewEntry = z.infer<typeof reviewEntrySchema>;
export type MetaEntry = z.infer<typeof metaEntrySchema>;
export type SessionEntry = z.infer<typeof sessionEntrySchema>;

export type SessionEntryType = SessionEntry["type"];

/** How a turn ended, as its last event says. */
export type TurnEnd = FinalEvent | ErrorEvent;
