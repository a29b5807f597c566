/**
 * Proposals (issue 55): edits to the memory files and new or changed skills that a helper turn
 * proposes (the daily consolidation, Save as skill) and only a person applies. Each is a file under
 * `storage/proposals/` with its state; each hunk is accepted, edited then accepted, or rejected on its
 * own, and an accepted one is a recorded change of the session that proposed it (Revert undoes it).
 */
import { z } from "zod";
import { errorReplies, operation } from "./operation.js";

/** The files a memory proposal may edit (data-root relative). */
export const MEMORY_PROPOSAL_FILES = ["memory/MEMORY.md", "workspace/USER.md"] as const;
/** Proposals a page of the list holds at most. */
export const MAX_PROPOSALS_PAGE = 100;

/** Where a proposed edit came from: a turn of a session, or a line of a daily log. */
export const proposalSourceSchema = z.union([
  z.strictObject({ session_id: z.string().max(64), turn: z.number().int().positive() }),
  z.strictObject({ log: z.string().max(200), line: z.number().int().positive() }),
]);
export type ProposalSource = z.infer<typeof proposalSourceSchema>;

/**
 * One edit: `add` appends `text` at the end of the file, `change` puts `text` where `old` is, `remove`
 * takes `old` out, `create` writes a new file. `old` is found in the file as it is when the hunk is
 * accepted (so an edit elsewhere in the file does not stop it); not found once, the hunk is stale.
 */
export const proposalHunkSchema = z.object({
  op: z.enum(["add", "change", "remove", "create"]),
  old: z.string().optional(),
  text: z.string().optional(),
  reason: z.string(),
  sources: z.array(proposalSourceSchema),
  state: z.enum(["pending", "accepted", "rejected"]),
  /** When accepted or rejected. */
  decided_at: z.string().optional(),
  /** Accepted: the recorded change that applied it (Revert puts the file back). */
  change: z.string().optional(),
  /** Accepted with the user's own text instead of the proposed one. */
  edited: z.boolean().optional(),
});
export type ProposalHunk = z.infer<typeof proposalHunkSchema>;

/** A proposal as `storage/proposals/<id>.json` holds it (format version 1). */
export const proposalSchema = z.object({
  v: z.literal(1),
  id: z.string().regex(/^prop_[0-9a-f]{12}$/),
  kind: z.enum(["memory", "skill"]),
  /** The file it edits or creates (data-root relative). */
  target: z.string().max(300),
  by: z.enum(["consolidation", "save_as_skill"]),
  created_at: z.string(),
  /** The helper turn that proposed it: accepted hunks are recorded as changes of this session and turn. */
  session_id: z.string().max(64),
  turn: z.number().int().positive(),
  summary: z.string().max(2000),
  /** Why nothing of it can be applied (a file that is not memory nor a skill, a clashing name): reported, kept for the record. */
  refused: z.string().optional(),
  hunks: z.array(proposalHunkSchema).max(200),
});
export type Proposal = z.infer<typeof proposalSchema>;

/** A hunk as shown: what stops it being applied now. */
export const proposalHunkViewSchema = proposalHunkSchema.extend({
  /** Why it cannot be applied to the file as it is now (its text changed or is gone), or null. */
  stale: z.string().nullable(),
  /** A secret (a key of the workbench's, or something shaped like an API key) in its text: it cannot be accepted as it is. */
  secret: z.string().nullable(),
});
export type ProposalHunkView = z.infer<typeof proposalHunkViewSchema>;

export const proposalViewSchema = proposalSchema
  .omit({ hunks: true })
  .extend({
    hunks: z.array(proposalHunkViewSchema),
    pending: z.number().int(),
    /** Accepting every pending hunk would bring the file over the prompt's per-file budget: what to fold. */
    over_budget: z.string().nullable(),
  })
  .meta({ id: "ProposalView" });
export type ProposalView = z.infer<typeof proposalViewSchema>;

export const proposalListQuerySchema = z.object({
  state: z.enum(["pending", "all"]).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PROPOSALS_PAGE).optional(),
});

export const proposalListReplySchema = z
  .object({
    proposals: z.array(proposalViewSchema),
    /** How many match the query (the page is `offset`..`offset + limit`). */
    total: z.number().int(),
    /** Proposals with a hunk waiting for the user (the count on the Proposals button). */
    pending: z.number().int(),
  })
  .meta({ id: "ProposalList" });
export type ProposalListReply = z.infer<typeof proposalListReplySchema>;

export const proposalDetailSchema = z
  .object({
    proposal: proposalViewSchema,
    /** The file as it is now (null: not there). */
    current: z.string().nullable(),
    /** The file with every pending hunk that can be applied, applied: the diff's right side. */
    proposed: z.string(),
  })
  .meta({ id: "ProposalDetail" });
export type ProposalDetail = z.infer<typeof proposalDetailSchema>;

export const proposalDecisionSchema = z
  .strictObject({
    /** The hunk (its index); absent: every pending hunk. */
    hunk: z.number().int().min(0).optional(),
    decision: z.enum(["accept", "reject"]),
    /** Edit then accept: the text to write instead of the hunk's (one hunk only). */
    text: z.string().max(200_000).optional(),
  })
  .meta({ id: "ProposalDecision" });
export type ProposalDecision = z.infer<typeof proposalDecisionSchema>;

export const proposalDecidedReplySchema = z
  .object({
    proposal: proposalViewSchema,
    /** The recorded change an accept made (Revert takes it back), or null. */
    change: z.string().nullable(),
  })
  .meta({ id: "ProposalDecided" });
export type ProposalDecidedReply = z.infer<typeof proposalDecidedReplySchema>;

export const saveAsSkillSchema = z.strictObject({ name: z.string().max(64).optional() }).meta({ id: "SaveAsSkill" });

const proposalParams = z.object({ id: z.string().max(64) });

export const proposalsApi = {
  list: operation({
    method: "GET",
    path: "/api/proposals",
    summary: "The proposals (newest first, a page at a time), each hunk with what stops it now (stale, a secret)",
    querystring: proposalListQuerySchema,
    responses: { 200: proposalListReplySchema, ...errorReplies(400) },
  }),
  read: operation({
    method: "GET",
    path: "/api/proposals/:id",
    summary: "One proposal with its file as it is now and as it would be (the diff)",
    params: proposalParams,
    responses: { 200: proposalDetailSchema, ...errorReplies(404) },
  }),
  decide: operation({
    method: "POST",
    path: "/api/proposals/:id/decide",
    summary: "Accepts (optionally with the user's own text) or rejects a hunk or every pending one; only from the workbench's own page. 409: stale, flagged for a secret, refused, or decided already",
    params: proposalParams,
    body: proposalDecisionSchema,
    responses: { 200: proposalDecidedReplySchema, ...errorReplies(400, 403, 404, 409) },
  }),
  saveAsSkill: operation({
    method: "POST",
    path: "/api/sessions/:id/turns/:turn/save-as-skill",
    summary: "Asks the helper profile for a skill made from a turn's steps: a proposal when its turn ends",
    params: z.object({ id: z.string().max(64), turn: z.coerce.number().int().positive() }),
    body: saveAsSkillSchema,
    responses: { 202: z.object({ session_id: z.string(), turn: z.number().int() }), ...errorReplies(400, 404, 409) },
  }),
};

