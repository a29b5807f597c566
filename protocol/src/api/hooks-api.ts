import { z } from "zod";
import { hookEventNameSchema, hookRunEventSchema } from "../chat-events.js";
import { errorReplies, operation } from "./operation.js";

/** One configured hook command, as the workbench runs it. */
export const configuredHookSchema = z.object({
  /** Stable while the file keeps it in place: `<source>#<event>/<group>/<hook>`. */
  id: z.string(),
  event: hookEventNameSchema,
  /** The group's matcher as written (absent: every tool / every occasion). */
  matcher: z.string().optional(),
  command: z.string(),
  timeout_seconds: z.number(),
  /** `HOOKS.json`, or `skill:<name>`. */
  source: z.string(),
  /** Why it does not run (its script lies in a folder the agent can write; its skill is not trusted). */
  refused: z.string().optional(),
});
export type ConfiguredHook = z.infer<typeof configuredHookSchema>;

/** A skill that ships hooks (`skills/<name>/hooks/hooks.json`): they run only once the user trusts exactly these files. */
export const skillHooksSchema = z.object({
  skill: z.string(),
  /** The SHA-256 of the skill's hook files as they are now: trust names it, and any change revokes it. */
  digest: z.string(),
  trusted: z.boolean(),
  /** The commands they would run, for the trust card. */
  commands: z.array(z.object({ event: hookEventNameSchema, matcher: z.string().optional(), command: z.string() })),
  /** Why the skill's hooks file cannot be used. */
  problem: z.string().nullable(),
});
export type SkillHooks = z.infer<typeof skillHooksSchema>;

/** A run as the Hooks view lists it: the run, and the session it ran in (none for a test or a task's run). */
export const hookRunRecordSchema = hookRunEventSchema.extend({ session_id: z.string().optional(), test: z.boolean().optional() });
export type HookRunRecord = z.infer<typeof hookRunRecordSchema>;

/** `GET /api/hooks`. */
export const hooksReplySchema = z
  .object({
    hooks: z.array(configuredHookSchema),
    /** Why HOOKS.json is not used as written (the last good hooks stay in force). */
    problem: z.string().nullable(),
    skills: z.array(skillHooksSchema),
    /** The latest runs, newest first. */
    runs: z.array(hookRunRecordSchema),
  })
  .meta({ id: "HooksReply" });
export type HooksReply = z.infer<typeof hooksReplySchema>;

/** `POST /api/hooks/test`: run one hook now against an event a session recorded (a past tool call), nothing else runs. */
export const hookTestRequestSchema = z
  .object({
    /** The configured hook's id. */
    hook: z.string().min(1).max(500),
    event: hookEventNameSchema,
    session_id: z.string().max(200).optional(),
    /** PreToolUse/PostToolUse: the recorded call to replay (the session's latest when absent). */
    call_id: z.string().max(200).optional(),
  })
  .meta({ id: "HookTestRequest" });
export type HookTestRequest = z.infer<typeof hookTestRequestSchema>;

/** `POST /api/hooks/trust`: the user trusts a skill's hooks as they are now (named by their digest). */
export const hookTrustRequestSchema = z.object({ skill: z.string().min(1).max(200), digest: z.string().min(1).max(200), trusted: z.boolean() }).meta({ id: "HookTrustRequest" });

export const hooksApi = {
  list: operation({ method: "GET", path: "/api/hooks", summary: "The configured hooks by event, the skills that ship hooks, HOOKS.json's problem, and the latest runs", responses: { 200: hooksReplySchema } }),
  test: operation({
    method: "POST",
    path: "/api/hooks/test",
    summary: "Runs one hook now against an event the session recorded (a past tool call) and answers what it decided; the tool does not run",
    body: hookTestRequestSchema,
    responses: { 200: hookRunRecordSchema, ...errorReplies(400, 403, 404, 422) },
  }),
  trust: operation({
    method: "POST",
    path: "/api/hooks/trust",
    summary: "Trusts (or stops trusting) a skill's hooks as they are now; only from the workbench's own page",
    body: hookTrustRequestSchema,
    responses: { 200: hooksReplySchema, ...errorReplies(400, 403, 404, 409) },
  }),
};
