import { api } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config/config.js";
import type { DelegationRegistry } from "../../delegation/delegation-runtime.js";
import { scanRoles } from "../../delegation/scan-roles.js";
import type { Reviewer } from "../../review/reviewer.js";
import type { UiEventBus } from "../../ui-events/ui-event-bus.js";
import { routeOf, typed } from "../api-route.js";

/** The status view: roles and their problems, delegations running now, the reviewer and its latest advice. */
export async function agentRoutes(app: FastifyInstance, deps: { config: Config; delegations: DelegationRegistry; reviewer: Reviewer; ui: UiEventBus }) {
  const { config, delegations, reviewer } = deps;

  typed(app).route({
    ...routeOf(api.agents.status),
    handler: async () => {
      const { roles, problems } = await scanRoles(config.dataRoot);
      return {
        roles: roles.map(({ instructions: _, ...info }) => info),
        problems,
        running: delegations.list(),
        max_depth: config.delegation.maxDepth,
        reviewer: reviewer.status(),
      };
    },
  });

  // Switches the reviewer for this run of the server (REVIEWER=on in the config switches it on at start).
  typed(app).route({
    ...routeOf(api.agents.reviewer),
    handler: async (request) => {
      reviewer.enabled = request.body.enabled;
      deps.ui.publish({ type: "refresh", target: "agents" });
      return reviewer.status();
    },
  });
}
