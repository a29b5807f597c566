import { api } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import type { Proposals } from "../../proposals/proposals.js";
import type { MemoryHelper } from "../../proposals/memory-helper.js";
import { assertSessionId } from "../../sessions/session-id.js";
import type { LiveTurn } from "../../turns/live-turn.js";
import type { TurnRequest } from "../../chat/prepare-turn.js";
import type { UiEventBus } from "../../ui-events/ui-event-bus.js";
import { routeOf, typed } from "../api-route.js";
import { assertOwnPage } from "../own-page.js";

interface ProposalDeps {
  proposals: Proposals;
  memory: MemoryHelper;
  allowedOrigins: string[];
  ui: UiEventBus;
  /** Starts a turn as the chat route does. */
  startTurn: (request: TurnRequest) => Promise<LiveTurn>;
  /** The memory helper's profile (the consolidation's), when one is set. */
  helperProfile: () => string | undefined;
  log: { warn(obj: object, msg: string): void };
}

/** The review queue (list, one with its diff, a person's decision) and Save as skill. */
export async function proposalRoutes(app: FastifyInstance, { proposals, memory, allowedOrigins, ui, startTurn, helperProfile, log }: ProposalDeps) {
  typed(app).route({ ...routeOf(api.proposals.list), handler: async (request) => proposals.list(request.query) });
  typed(app).route({ ...routeOf(api.proposals.read), handler: async (request) => proposals.detail(request.params.id) });

  typed(app).route({
    ...routeOf(api.proposals.decide),
    handler: async (request) => {
      // Memory and skills change only by a person's click on the workbench's own page, as approvals are granted.
      assertOwnPage(request, allowedOrigins, "Proposals are accepted or rejected only from the workbench's own page (its Origin), never by another site or a script.");
      return proposals.decide(request.params.id, request.body);
    },
  });

  typed(app).route({
    ...routeOf(api.proposals.saveAsSkill),
    handler: async (request, reply) => {
      const sessionId = assertSessionId(request.params.id);
      const turn = await memory.skillTurn(sessionId, request.params.turn, request.body.name?.trim() || undefined);
      const profile = helperProfile();
      const live = await startTurn({ ...turn, session_id: null, ...(profile ? { model: profile } : {}) });
      live.subscribe({
        event: () => {},
        end: () =>
          void memory.settle(live, "save_as_skill").then(
            (settled) => ui.toast({ kind: "proposals_made", ok: settled.ok, detail: settled.detail }, settled.ok ? "info" : "warning"),
            (err: Error) => log.warn({ err: err.message }, "Save as skill: proposals not stored"),
          ),
      });
      const started = live.events.find((e) => e.event.type === "session")?.event;
      return reply.code(202).send({ session_id: live.sessionId, turn: started?.type === "session" ? (started.turn ?? 1) : 1 });
    },
  });
}
