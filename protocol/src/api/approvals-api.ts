import { z } from "zod";
import { approvalRequestEventSchema, gatedToolSchema } from "../chat-events.js";
import { errorReplies, operation } from "./operation.js";

/** One governed tool's part of `APPROVALS.json`. */
export const toolApprovalPolicySchema = z.object({ mode: z.enum(["off", "ask", "ask-unlisted", "deny"]), allow: z.array(z.string()), deny: z.array(z.string()) });
export type ToolApprovalPolicy = z.infer<typeof toolApprovalPolicySchema>;

/** `GET /api/approvals`: what waits for the user now, and the policy in force. */
export const approvalsReplySchema = z
  .object({
    pending: z.array(approvalRequestEventSchema.extend({ session_id: z.string() })),
    /** `mcp`: MCP tools' mode and rules (`mcp__server__tool`, `mcp__server`, `mcp__server__*`). */
    policy: z.object({ version: z.literal(1), timeout_seconds: z.number(), tools: z.record(gatedToolSchema, toolApprovalPolicySchema), mcp: toolApprovalPolicySchema }),
    /** Why APPROVALS.json was not used as written (then every call asks until it is fixed). */
    problem: z.string().nullable(),
    /** `APPROVALS=off` in the environment: nothing asks. */
    off: z.boolean(),
  })
  .meta({ id: "ApprovalsReply" });
export type ApprovalsReply = z.infer<typeof approvalsReplySchema>;

/** `POST /api/approvals/:id`: only from the workbench's own page (its Origin). */
export const approvalDecisionSchema = z
  .object({
    decision: z.enum(["approve", "always", "deny"]),
    /** `always`: the allow rule to add. */
    rule: z.string().min(1).max(500).optional(),
    /** `deny`: why (the model reads it). */
    reason: z.string().max(2000).optional(),
  })
  .meta({ id: "ApprovalDecisionRequest" });

/** A decision as the gate takes it. */
export type ApprovalDecision = { decision: "approve" } | { decision: "always"; rule: string } | { decision: "deny"; reason?: string };

export const approvalDecidedReplySchema = z.object({ id: z.string(), decision: z.enum(["approve", "always", "deny"]) }).meta({ id: "ApprovalDecidedReply" });

export const approvalsApi = {
  list: operation({ method: "GET", path: "/api/approvals", summary: "Calls waiting for the user, and the policy in force", responses: { 200: approvalsReplySchema } }),
  decide: operation({
    method: "POST",
    path: "/api/approvals/:id",
    summary: "Approves, always allows (adding a rule) or denies a waiting call; only from the workbench's own page",
    params: z.object({ id: z.string().max(200) }),
    body: approvalDecisionSchema,
    responses: { 200: approvalDecidedReplySchema, ...errorReplies(400, 403, 404) },
  }),
};
