/**
 * Replay and compare (issue 54): a recorded turn run again — on another profile, with today's prompt
 * or the one that turn was sent, its tools answered from the record or run live — into a new session
 * marked as its replay; two runs of a turn side by side; what the model was sent, diffed by section.
 */
import { z } from "zod";
import { errorReplies, operation } from "./operation.js";

/** A replay's choices. */
export const replayRequestSchema = z
  .strictObject({
    /** The profile it runs on (absent: the one the turn ran on, else the default). */
    profile: z.string().max(64).optional(),
    /** `original`: the system prompt as that turn was sent (kept with the session); `today`: assembled from the files now. */
    prompt: z.enum(["original", "today"]).optional(),
    /** `recorded`: each tool call answered from the original turn's results (same tool, same input); `live`: run, under approvals. */
    tools: z.enum(["recorded", "live"]).optional(),
    /** With recorded tools, a call the original never made: answered "not recorded" (default), or run live. */
    unrecorded: z.enum(["refuse", "live"]).optional(),
  })
  .meta({ id: "ReplayRequest" });
export type ReplayRequest = z.infer<typeof replayRequestSchema>;

/** What a replay session was made from (its `meta` entry, and the session list). */
export const replayOfSchema = z.object({
  session_id: z.string(),
  turn: z.number().int().positive(),
  profile: z.string().optional(),
  prompt: z.enum(["original", "today"]),
  tools: z.enum(["recorded", "live"]),
});
export type ReplayOf = z.infer<typeof replayOfSchema>;

export const replayReplySchema = z.object({ session_id: z.string(), turn: z.number().int(), replay_of: replayOfSchema }).meta({ id: "ReplayStarted" });

/** One section of what the model was sent, in two runs: the same, changed (its lines), or in one only. */
export const promptSectionDiffSchema = z.object({
  name: z.string(),
  path: z.string().optional(),
  status: z.enum(["same", "changed", "added", "removed"]),
  /** The changed lines, each marked (`-` only before, `+` only after), with a line of context around each run. */
  lines: z.array(z.object({ kind: z.enum(["same", "removed", "added"]), text: z.string() })).optional(),
  /** Sizes before and after (characters). */
  before_chars: z.number().int().optional(),
  after_chars: z.number().int().optional(),
});
export type PromptSectionDiff = z.infer<typeof promptSectionDiffSchema>;

export const promptDiffSchema = z
  .object({
    /** Null: that run's prompt is not kept (a turn from before prompts were kept with the session). */
    before: z.object({ session_id: z.string(), turn: z.number().int(), sha256: z.string() }).nullable(),
    after: z.object({ session_id: z.string(), turn: z.number().int(), sha256: z.string() }).nullable(),
    sections: z.array(promptSectionDiffSchema),
    /** The history before the turn: how many messages each run was sent before its user message. */
    history: z.object({ before: z.number().int(), after: z.number().int() }).optional(),
  })
  .meta({ id: "PromptDiff" });
export type PromptDiff = z.infer<typeof promptDiffSchema>;

/** A run of a turn as the compare view shows it. */
export const comparedRunSchema = z.object({
  session_id: z.string(),
  turn: z.number().int(),
  replay_of: replayOfSchema.optional(),
  message: z.string(),
  answer: z.string(),
  thoughts: z.string(),
  profile: z.string().nullable(),
  model: z.string().nullable(),
  tool_calls: z.array(z.object({ name: z.string(), input: z.unknown(), ok: z.boolean().nullable(), output_chars: z.number().int(), replayed: z.boolean() })),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cost: z.number().nullable(),
  /** Milliseconds from the turn's start to its first token of text, and to its end (null: not recorded). */
  first_token_ms: z.number().nullable(),
  total_ms: z.number().nullable(),
  error: z.string().nullable(),
});
export type ComparedRun = z.infer<typeof comparedRunSchema>;

export const compareReplySchema = z
  .object({
    runs: z.array(comparedRunSchema),
    /** The tool calls of each later run against the first's, in order: same (name and input), different input, extra, missing. */
    tool_calls: z.array(z.array(z.object({ name: z.string(), status: z.enum(["same", "different", "extra", "missing"]) }))),
    /** What each later run was sent against the first. */
    prompts: z.array(promptDiffSchema),
  })
  .meta({ id: "CompareReply" });
export type CompareReply = z.infer<typeof compareReplySchema>;

const turnParams = z.object({ id: z.string().max(64), turn: z.coerce.number().int().positive() });
/** `session:turn`, comma-separated, two to four. */
const runsQuery = z.object({ runs: z.string().max(400) });

export const replayApi = {
  replay: operation({
    method: "POST",
    path: "/api/sessions/:id/turns/:turn/replay",
    summary: "Runs a recorded turn again into a new session marked as its replay (the original unchanged): on a profile, with the original or today's prompt, tools recorded or live",
    params: turnParams,
    body: replayRequestSchema,
    responses: { 202: replayReplySchema, ...errorReplies(400, 404, 409) },
  }),
  promptDiff: operation({
    method: "GET",
    path: "/api/sessions/:id/prompt-diff",
    summary: "What the model was sent at one turn against another of the session, section by section",
    params: z.object({ id: z.string().max(64) }),
    querystring: z.object({ from: z.coerce.number().int().positive(), to: z.coerce.number().int().positive() }),
    responses: { 200: promptDiffSchema, ...errorReplies(400, 404) },
  }),
  compare: operation({
    method: "GET",
    path: "/api/compare",
    summary: "Two to four runs of a turn side by side (runs=session:turn,...): answers, thoughts, tool calls and their differences, tokens, cost, times, and the prompt diff",
    querystring: runsQuery,
    responses: { 200: compareReplySchema, ...errorReplies(400, 404) },
  }),
};
