import type { AgentsReply } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config/config.js";
import type { DelegationRegistry } from "../../delegation/delegation-runtime.js";
import { scanRoles } from "../../delegation/scan-roles.js";
import type { Reviewer } from "../../review/reviewer.js";

const reviewerBody = {
  type: "object",
  required: ["enabled"],
  properties: { enabled: { type: "boolean" } },
  additionalProperties: false,
} as const;

/** The status view: roles and their problems, delegations running now, the reviewer and its latest advice. */
export async function agentRoutes(app: FastifyInstance, deps: { config: Config; delegations: DelegationRegistry; reviewer: Reviewer }) {
  const { config, delegations, reviewer } = deps;

  app.get("/api/agents", async (): Promise<AgentsReply> => {
    const { roles, problems } = await scanRoles(config.dataRoot);
    return {
      roles: roles.map(({ instructions: _, ...info }) => info),
      problems,
      running: delegations.list(),
      max_depth: config.delegation.maxDepth,
      reviewer: reviewer.status(),
    };
  });

  // Switches the reviewer for this run of the server (REVIEWER=on in the config switches it on at start).
  app.post<{ Body: { enabled: boolean } }>("/api/reviewer", { schema: { body: reviewerBody } }, async (request) => {
    reviewer.enabled = request.body.enabled;
    return reviewer.status();
  });
}
