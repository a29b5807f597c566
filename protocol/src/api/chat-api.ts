import { z } from "zod";
import { chatErrorCodeSchema, chatEventSchema, queueItemSchema, queueModeSchema } from "../chat-events.js";
import { compactionEntrySchema } from "../session-entries.js";
import { apiErrorSchema, errorReplies, operation, sessionParams } from "./operation.js";

const chatRequestFields = z.object({
  message: z.string(),
  session_id: z.string().max(200).nullish(),
  stream: z.boolean().optional(),
  /** false: the model is offered no tools this turn (for models that take none). */
  tools: z.boolean().optional(),
  /**
   * Start a branch: the new turn follows this turn (0: the session's start) instead of the current
   * branch's last. Editing turn N and sending, or regenerating it, passes N's parent.
   */
  parent_turn: z.number().int().min(0).optional(),
  /**
   * When the session's turn runs: `follow_up` runs this message as the next turn once it ends (in order),
   * `steer` hands it to the running turn at its next step boundary. With `session_id`, the reply is then
   * always `202 ChatQueuedReply`: when no turn runs any more, the message starts the next turn at once and
   * the reply says so (`started`, `turn`: follow it with `GET /api/sessions/:id/stream`), never the turn's
   * stream. Without `queue`, a message to a busy session is a 409. (`POST /api/sessions/:id/queue` is the
   * same without the rest of this request.)
   */
  queue: queueModeSchema.optional(),
  /** This message only goes to this model profile (`GET /api/models`); the session keeps its own. */
  model: z.string().max(100).optional(),
  /** The session's profile from this message on (a new session starts on it; stored with the session). */
  session_model: z.string().max(100).optional(),
  /** Files and images uploaded with `POST /api/attachments`, by id (at most 10). */
  attachments: z.array(z.string().max(100)).max(10).optional(),
});
export const chatRequestSchema = chatRequestFields.meta({ id: "ChatRequest" });
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** `POST /api/sessions/:id/queue`: a message for the session, behind its running turn. */
export const queueRequestSchema = chatRequestFields
  .pick({ message: true, tools: true, model: true, session_model: true, attachments: true })
  /** `follow_up` when absent. */
  .extend({ mode: queueModeSchema.optional() })
  .meta({ id: "QueueRequest" });
export type QueueRequest = z.infer<typeof queueRequestSchema>;

/**
 * `202` to a queued message: it waits in the session's queue under `queued`; or, when no turn ran any
 * more, it started the session's next turn at once (`started`, and that turn's number).
 */
export const chatQueuedReplySchema = z
  .object({
    queued: z.string().optional(),
    session_id: z.string(),
    mode: queueModeSchema,
    started: z.literal(true).optional(),
    turn: z.number().int().optional(),
  })
  .meta({ id: "ChatQueuedReply" });
export type ChatQueuedReply = z.infer<typeof chatQueuedReplySchema>;

/** `POST /api/chat` with `stream: false`. */
export const chatReplySchema = z.object({ session_id: z.string(), content: z.string(), events: z.array(chatEventSchema) }).meta({ id: "ChatReply" });
export type ChatReply = z.infer<typeof chatReplySchema>;

/** A non-streamed turn that failed: its error, its code, and everything it streamed. */
export const chatErrorReplySchema = z.object({ error: z.string(), code: chatErrorCodeSchema, session_id: z.string(), events: z.array(chatEventSchema) }).meta({ id: "ChatErrorReply" });

/** `POST /api/sessions/:id/stop`: the turn ends (its `error` event says `aborted`); the queue comes back, emptied. */
export const stopReplySchema = z
  .object({
    id: z.string(),
    stopping: z.literal(true),
    /** The messages that were queued, oldest first, for the composer. */
    queue: z.array(queueItemSchema),
  })
  .meta({ id: "StopReply" });
export type StopReply = z.infer<typeof stopReplySchema>;

/** `POST /api/sessions/:id/compact`. */
export const compactReplySchema = z
  .object({
    compacted: z.boolean(),
    /** Why nothing was compacted (e.g. the session has no turns yet). */
    reason: z.string().optional(),
    entry: compactionEntrySchema.optional(),
  })
  .meta({ id: "CompactReply" });
export type CompactReply = z.infer<typeof compactReplySchema>;

const chatStream = { contentType: "text/event-stream", description: "The turn's events, one SSE frame each (`id: <event id>`, `data: <ChatEvent>`), until its `final` or `error`." };
/** `stream: false`: the answer as JSON once the turn ends. */
const chatStreamOrReply = { ...chatStream, json: chatReplySchema };

/**
 * Non-streamed failures: the model's troubles (502-504), its rate limit, a stopped turn (499), a full
 * disk (507), with the turn's events; a refusal before any turn (a full queue's 429) is a plain error.
 */
const turnFailure = z.union([chatErrorReplySchema, apiErrorSchema]);
const turnFailures = { 429: turnFailure, 499: turnFailure, 500: turnFailure, 502: turnFailure, 503: turnFailure, 504: turnFailure, 507: turnFailure };

export const chatApi = {
  chat: operation({
    method: "POST",
    path: "/api/chat",
    summary: "Starts a turn (streamed as SSE unless `stream: false`), or queues the message behind the session's running turn",
    body: chatRequestSchema,
    responses: { 200: chatStreamOrReply, 202: chatQueuedReplySchema, ...errorReplies(400, 404, 409, 413), ...turnFailures },
  }),
  stream: operation({
    method: "GET",
    path: "/api/sessions/:id/stream",
    summary: "Follows the session's running turn live: from its start, or after `after` (or Last-Event-ID); 204 when none runs",
    params: sessionParams,
    querystring: z.object({ after: z.string().max(40).optional() }),
    responses: { 200: chatStream, 204: null, ...errorReplies(400, 404) },
  }),
  stop: operation({
    method: "POST",
    path: "/api/sessions/:id/stop",
    summary: "Stops the session's running turn; its queued messages come back",
    params: sessionParams,
    responses: { 200: stopReplySchema, ...errorReplies(400, 404, 409) },
  }),
  queue: operation({
    method: "POST",
    path: "/api/sessions/:id/queue",
    summary: "Queues a message behind the session's running turn, or starts the next turn with it when none runs (202 either way)",
    params: sessionParams,
    body: queueRequestSchema,
    responses: { 202: chatQueuedReplySchema, ...errorReplies(400, 404, 413, 429) },
  }),
  dequeue: operation({
    method: "DELETE",
    path: "/api/sessions/:id/queue/:qid",
    summary: "Takes a message out of the session's queue",
    params: z.object({ id: z.string().max(200), qid: z.string().max(200) }),
    responses: { 204: null, ...errorReplies(400, 404) },
  }),
  compact: operation({
    method: "POST",
    path: "/api/sessions/:id/compact",
    summary: "Summarizes the session's turns now (all but `keep_turns`)",
    params: sessionParams,
    body: z.object({ keep_turns: z.number().int().min(0).max(10_000).optional() }).nullish(),
    responses: { 200: compactReplySchema, ...errorReplies(400, 404, 409, 502) },
  }),
};
