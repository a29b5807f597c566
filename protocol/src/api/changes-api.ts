import { z } from "zod";
import { changedFileSchema } from "../chat-events.js";
import { MAX_PATH_CHARS } from "./limits.js";
import { errorReplies, operation, sessionParams } from "./operation.js";

/** A file a call changed, as the list shows it now. */
export const listedFileSchema = changedFileSchema.extend({
  /** The file is now as it was before the call (put back by Revert, Rewind or by hand): the change is undone. */
  reverted: z.boolean(),
});

/** One call's file changes, as `GET /api/sessions/:id/changes?turn=N` lists them. */
export const callChangesSchema = z.object({
  change: z.string(),
  turn: z.number().int(),
  call_id: z.string(),
  tool: z.string(),
  at: z.string(),
  files: z.array(listedFileSchema),
  /** What the call may have changed that cannot be known, each with why. */
  untracked: z.array(z.string()).optional(),
});
export type CallChanges = z.infer<typeof callChangesSchema>;

export const changesReplySchema = z
  .object({
    session_id: z.string(),
    /** The turn asked for, or null for every turn. */
    turn: z.number().int().nullable(),
    calls: z.array(callChangesSchema),
  })
  .meta({ id: "ChangesReply" });
export type ChangesReply = z.infer<typeof changesReplySchema>;

/** `GET /api/changes/:change/diff?path=`: the file before and after the call, as text (null: absent or not text). */
export const changeDiffReplySchema = z
  .object({
    change: z.string(),
    path: z.string(),
    kind: changedFileSchema.shape.kind,
    before: z.string().nullable(),
    after: z.string().nullable(),
    /** What the file holds now, when it differs from `after` (the user changed it since). */
    current_differs: z.boolean(),
  })
  .meta({ id: "ChangeDiffReply" });
export type ChangeDiffReply = z.infer<typeof changeDiffReplySchema>;

/** `POST /api/changes/revert { change, path, force? }`. */
export const revertReplySchema = z
  .object({
    reverted: z.string(),
    /** What was done: the file's earlier content written back, or the file the call created removed. */
    action: z.enum(["restored", "removed"]),
  })
  .meta({ id: "RevertReply" });
export type RevertReply = z.infer<typeof revertReplySchema>;

/** `POST /api/sessions/:id/rewind { turn, files?, conversation?, on_conflict? }`. */
export const rewindReplySchema = z
  .object({
    session_id: z.string(),
    turn: z.number().int(),
    /** `untracked`: what the rewound calls may have changed that cannot be known (so it was not put back), each with why. */
    files: z.object({
      restored: z.array(z.string()),
      removed: z.array(z.string()),
      skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
      untracked: z.array(z.string()),
    }),
    /** The turn the session's current branch now ends at (0: before the first), when the conversation was rewound. */
    conversation_leaf: z.number().int().nullable(),
  })
  .meta({ id: "RewindReply" });
export type RewindReply = z.infer<typeof rewindReplySchema>;

/** A rewind refused because files changed since: the error, and those files. */
export const rewindConflictSchema = z.object({ error: z.string(), conflicts: z.array(z.string()).optional() }).meta({ id: "RewindConflict" });

export const changesApi = {
  list: operation({
    method: "GET",
    path: "/api/sessions/:id/changes",
    summary: "What each of the session's calls changed on disk (one turn's, with `turn`)",
    params: sessionParams,
    querystring: z.object({ turn: z.string().regex(/^[1-9][0-9]{0,8}$/, "a turn number").optional() }),
    responses: { 200: changesReplySchema, ...errorReplies(400, 404) },
  }),
  diff: operation({
    method: "GET",
    path: "/api/changes/:change/diff",
    summary: "A changed file before and after the call, as text",
    params: z.object({ change: z.string().max(300) }),
    querystring: z.object({ path: z.string().min(1).max(MAX_PATH_CHARS) }),
    responses: { 200: changeDiffReplySchema, ...errorReplies(400, 404) },
  }),
  revert: operation({
    method: "POST",
    path: "/api/changes/revert",
    summary: "Puts one file back as it was before the call (`force`: even if it changed since)",
    body: z.object({ change: z.string().min(1).max(300), path: z.string().min(1).max(MAX_PATH_CHARS), force: z.boolean().optional() }).meta({ id: "RevertRequest" }),
    responses: { 200: revertReplySchema, ...errorReplies(400, 403, 404, 409, 422) },
  }),
  rewind: operation({
    method: "POST",
    path: "/api/sessions/:id/rewind",
    summary: "Puts back the files the calls of a turn and those after it changed, and/or the conversation to before it",
    params: sessionParams,
    body: z
      .object({ turn: z.number().int().min(1), files: z.boolean().optional(), conversation: z.boolean().optional(), on_conflict: z.enum(["fail", "skip", "overwrite"]).optional() })
      .meta({ id: "RewindRequest" }),
    responses: { 200: rewindReplySchema, 409: rewindConflictSchema, ...errorReplies(400, 404) },
  }),
};
