import { z } from "zod";
import { queueItemSchema } from "../chat-events.js";
import { sessionEntrySchema } from "../session-entries.js";
import { exportedAttachmentSchema } from "./attachments-api.js";
import { MAX_IMPORT_BYTES, MAX_SEARCH_CHARS, MAX_TITLE_CHARS } from "./limits.js";
import { usageRowSchema, usageTotalsSchema } from "./model-profiles-api.js";
import { replayOfSchema } from "./replay-api.js";
import { errorReplies, operation, sessionParams } from "./operation.js";

export const sessionSummarySchema = z
  .object({
    id: z.string(),
    /** The user's title, else the first message's start. */
    title: z.string(),
    /** When its last turn happened (renaming or pinning does not count). */
    updated_at: z.string(),
    message_count: z.number().int(),
    pinned: z.boolean(),
    /** The model profile its turns go to (absent: the default profile). */
    model: z.string().optional(),
    /** A scheduled task's run made it (the heartbeat's: `heartbeat`): the list shows it under its task, apart from the chats. */
    task_id: z.string().optional(),
    /** A replay of that turn: listed apart from the chats. */
    replay_of: replayOfSchema.optional(),
  })
  .meta({ id: "SessionSummary" });
export type SessionSummary = z.infer<typeof sessionSummarySchema>;

/** `PATCH /api/sessions/:id`: rename (`title: null` goes back to the generated one), pin, switch branch. */
export const sessionUpdateSchema = z
  .object({
    title: z.string().max(MAX_TITLE_CHARS).nullable().optional(),
    pinned: z.boolean().optional(),
    /** Show the branch through this turn (its newest continuation). */
    branch: z.number().int().min(1).optional(),
    /** Correct a turn's message without running it again (as long as a chat message may be). */
    edit: z.object({ turn: z.number().int().min(1), content: z.string().min(1) }).optional(),
    /** Switch the session to this model profile (null: back to the default); its history and prompt stay as they are. */
    model: z.string().max(100).nullable().optional(),
  })
  
  .meta({ id: "SessionUpdate" });
export type SessionUpdate = z.infer<typeof sessionUpdateSchema>;

/** `DELETE /api/sessions/:id`: the file went to the trash; `POST /api/sessions/:id/restore` with `trash` brings it back. */
export const sessionDeleteReplySchema = z.object({ id: z.string(), trash: z.string() }).meta({ id: "SessionDeleteReply" });
export type SessionDeleteReply = z.infer<typeof sessionDeleteReplySchema>;

export const sessionSearchHitSchema = z.object({
  id: z.string(),
  title: z.string(),
  updated_at: z.string(),
  /** The id of the first turn holding every word of the query, or 0 when only the title matched. */
  turn: z.number().int(),
  /** Text around the first match in that turn. */
  snippet: z.string(),
});
export type SessionSearchHit = z.infer<typeof sessionSearchHitSchema>;

export const sessionSearchReplySchema = z
  .object({
    query: z.string(),
    results: z.array(sessionSearchHitSchema),
    /** Sessions searched. */
    searched: z.number().int(),
  })
  .meta({ id: "SessionSearchReply" });
export type SessionSearchReply = z.infer<typeof sessionSearchReplySchema>;

/** A browser step's screenshot in an export: its id (the hash of its bytes) and the JPEG. */
export const exportedScreenshotSchema = z.object({ id: z.string().regex(/^[0-9a-f]{32}$/), data: z.base64() }).meta({ id: "ExportedScreenshot" });
export type ExportedScreenshot = z.infer<typeof exportedScreenshotSchema>;

/** `GET /api/sessions/:id/export?format=json`, and what `POST /api/sessions/import` takes. */
export const sessionExportSchema = z
  .object({
    format: z.literal("mini-openclaw-session"),
    version: z.literal(2),
    id: z.string(),
    title: z.string(),
    exported_at: z.string(),
    entries: z.array(sessionEntrySchema),
    /** The bytes of the attachments its messages name (base64), stored again and checked like uploads on import. */
    attachments: z.array(exportedAttachmentSchema).optional(),
    /** The browser steps' screenshots (JPEG, base64) by the id their cards carry, stored again on import. */
    screenshots: z.array(exportedScreenshotSchema).optional(),
  })
  .meta({ id: "SessionExport" });
export type SessionExport = z.infer<typeof sessionExportSchema>;

/** A turn of the current branch: its id, the turn it follows, and the turns that follow the same one. */
export const branchTurnSchema = z.object({
  /** The turn's id as stored in its entries (1, 2, ... in the order turns started). */
  turn: z.number().int(),
  /** The id of the turn it follows; 0: the session's start. */
  parent: z.number().int(),
  /** Turns with the same parent (this one among them), oldest first: more than one is a fork. */
  siblings: z.array(z.number().int()),
});
export type BranchTurn = z.infer<typeof branchTurnSchema>;

export const sessionDetailSchema = sessionSummarySchema
  .extend({
    /** The entries of the current branch, in file order (the file holds every branch). */
    entries: z.array(sessionEntrySchema),
    /** The current branch's turns, in order, one per `user` entry of `entries`. */
    branch: z.array(branchTurnSchema),
    /**
     * A turn runs in this session now (`GET /api/sessions/:id/stream` follows it live). Otherwise a last
     * turn without a `final` or `error` event was cut short (the server stopped) and replays as interrupted.
     */
    running: z.boolean(),
    /** Messages queued behind the running turn (follow-ups, and steers not yet delivered), oldest first. */
    queue: z.array(queueItemSchema),
    /** Set when the file's last line was torn (a crash mid-write) and was dropped on reading. */
    recovered_torn_line: z.boolean().optional(),
    /** Tokens and cost of every turn in the file (all branches), by profile; helpers apart. */
    usage: z.object({ rows: z.array(usageRowSchema), total: usageTotalsSchema }),
  })
  .meta({ id: "SessionDetail" });
export type SessionDetail = z.infer<typeof sessionDetailSchema>;

export const sessionListReplySchema = z.object({ sessions: z.array(sessionSummarySchema) }).meta({ id: "SessionListReply" });
export type SessionListReply = z.infer<typeof sessionListReplySchema>;

export const sessionRestoreReplySchema = z.object({ id: z.string(), restored: z.literal(true) }).meta({ id: "SessionRestoreReply" });

const trashBody = z.object({ trash: z.string().max(120) });

export const sessionsApi = {
  list: operation({ method: "GET", path: "/api/sessions", summary: "Every session, newest first", responses: { 200: sessionListReplySchema } }),
  search: operation({
    method: "GET",
    path: "/api/sessions/search",
    summary: "Sessions whose title or turns hold every word of `q` (Chinese and Japanese by character pairs)",
    querystring: z.object({ q: z.string().min(1).max(MAX_SEARCH_CHARS) }),
    responses: { 200: sessionSearchReplySchema, ...errorReplies(400) },
  }),
  read: operation({
    method: "GET",
    path: "/api/sessions/:id",
    summary: "A session: its current branch's entries, the branch's turns, whether a turn runs, its queue",
    params: sessionParams,
    responses: { 200: sessionDetailSchema, ...errorReplies(400, 404) },
  }),
  update: operation({
    method: "PATCH",
    path: "/api/sessions/:id",
    summary: "Renames, pins, switches the branch shown, or corrects a turn's message",
    params: sessionParams,
    body: sessionUpdateSchema,
    responses: { 200: sessionSummarySchema, ...errorReplies(400, 404, 409, 413) },
  }),
  fork: operation({
    method: "POST",
    path: "/api/sessions/:id/fork",
    summary: "A new session holding the branch up to `turn`",
    params: sessionParams,
    body: z.object({ turn: z.number().int().min(1) }),
    responses: { 201: sessionSummarySchema, ...errorReplies(400, 404, 409) },
  }),
  remove: operation({
    method: "DELETE",
    path: "/api/sessions/:id",
    summary: "Moves the session to the trash (its calls' change records go with it)",
    params: sessionParams,
    responses: { 200: sessionDeleteReplySchema, ...errorReplies(400, 404, 409) },
  }),
  restore: operation({
    method: "POST",
    path: "/api/sessions/:id/restore",
    summary: "Brings a deleted session back from the trash",
    params: sessionParams,
    body: trashBody,
    responses: { 200: sessionRestoreReplySchema, ...errorReplies(400, 404, 409) },
  }),
  export: operation({
    method: "GET",
    path: "/api/sessions/:id/export",
    summary: "The session as JSON (every branch, to import elsewhere) or as Markdown (the branch shown); images as the model got them (no EXIF or GPS) unless `images=original`",
    params: sessionParams,
    querystring: z.object({ format: z.enum(["json", "md"]).optional(), images: z.enum(["stripped", "original"]).optional() }),
    responses: { 200: { contentType: "text/markdown", description: "`format=md`: the branch shown, as Markdown.", json: sessionExportSchema }, ...errorReplies(400, 404, 409) },
  }),
  import: operation({
    method: "POST",
    path: "/api/sessions/import",
    summary: `Imports an exported session as a new one (at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB)`,
    body: sessionExportSchema,
    responses: { 201: sessionSummarySchema, ...errorReplies(400, 413) },
  }),
};
