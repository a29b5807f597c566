import { api, type ApprovalDecision } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import { assertOwnPage } from "../own-page.js";
import type { Config } from "../../config/config.js";
import { UserError } from "../../lib/user-error.js";
import { loadPolicy } from "../../approvals/approval-file.js";
import type { ApprovalGate } from "../../approvals/approval-gate.js";
import { routeOf, typed } from "../api-route.js";


/** What waits for the user, the policy in force, and the user's decisions. */
export async function approvalRoutes(app: FastifyInstance, { config, gate }: { config: Config; gate: ApprovalGate }) {
  typed(app).route({
    ...routeOf(api.approvals.list),
    handler: async () => {
      const { policy, problem } = await loadPolicy(config.dataRoot);
      return { pending: gate.list(), policy, problem, off: config.approvalsOff };
    },
  });

  typed(app).route({
    ...routeOf(api.approvals.decide),
    handler: async (request) => {
      assertOwnPage(request, config.allowedOrigins, "Approvals are granted only from the workbench's own page (its Origin), never by another site or a script.");
      const body = request.body;
      if (body.decision === "always" && !body.rule?.trim()) throw new UserError("invalid_request", "Always allow needs the rule to add (`rule`).");
      const decision: ApprovalDecision =
        body.decision === "always" ? { decision: "always", rule: body.rule!.trim() } : body.decision === "deny" ? { decision: "deny", ...(body.reason?.trim() ? { reason: body.reason.trim() } : {}) } : { decision: "approve" };
      const decided = gate.decide(request.params.id, decision);
      request.log.info({ approval: decided.id, tool: decided.tool, decision: decision.decision }, "approval decided");
      return { id: decided.id, decision: decision.decision };
    },
  });
}
