import { z } from "zod";
import { operation } from "./operation.js";

/** A sub-agent role from `agents/<name>.md`. */
export const roleInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** Data-root-relative path of the role file. */
  path: z.string(),
  /** The tools its sub-agents get: core tools, and `delegate` to delegate further. */
  tools: z.array(z.string()),
  /** A model name overriding the configured one for this role. */
  model: z.string().nullable(),
  warnings: z.array(z.string()),
});
export type RoleInfo = z.infer<typeof roleInfoSchema>;

export const roleProblemSchema = z.object({ path: z.string(), reason: z.string() });
export type RoleProblem = z.infer<typeof roleProblemSchema>;

/** A delegation running now. */
export const runningDelegationSchema = z.object({
  call_id: z.string(),
  session_id: z.string(),
  agent: z.string(),
  depth: z.number().int(),
  task: z.string(),
  started_at: z.string(),
});
export type RunningDelegation = z.infer<typeof runningDelegationSchema>;

export const reviewInfoSchema = z.object({ session_id: z.string(), ts: z.string(), advice: z.string(), record: z.string() });
export type ReviewInfo = z.infer<typeof reviewInfoSchema>;

export const reviewerStatusSchema = z.object({ enabled: z.boolean(), running: z.array(z.string()), latest: reviewInfoSchema.nullable() }).meta({ id: "ReviewerStatus" });
export type ReviewerStatus = z.infer<typeof reviewerStatusSchema>;

/** `GET /api/agents`: the status view. */
export const agentsReplySchema = z
  .object({
    roles: z.array(roleInfoSchema),
    problems: z.array(roleProblemSchema),
    running: z.array(runningDelegationSchema),
    max_depth: z.number().int(),
    reviewer: reviewerStatusSchema,
  })
  .meta({ id: "AgentsReply" });
export type AgentsReply = z.infer<typeof agentsReplySchema>;

export const agentsApi = {
  status: operation({ method: "GET", path: "/api/agents", summary: "Sub-agent roles and their problems, delegations running now, the reviewer", responses: { 200: agentsReplySchema } }),
  reviewer: operation({
    method: "POST",
    path: "/api/reviewer",
    summary: "Switches the reviewer on or off for this run of the server",
    body: z.object({ enabled: z.boolean() }),
    responses: { 200: reviewerStatusSchema },
  }),
};
