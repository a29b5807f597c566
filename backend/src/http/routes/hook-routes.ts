import { api } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config/config.js";
import type { Hooks } from "../../hooks/hooks.js";
import { recordedOccasion } from "../../hooks/recorded-occasion.js";
import { UserError } from "../../lib/user-error.js";
import type { SessionStore } from "../../sessions/session-store.js";
import { routeOf, typed } from "../api-route.js";
import { assertOwnPage } from "../own-page.js";

/** The hooks, their problems and last runs; a hook's test run against what a session recorded. */
export async function hookRoutes(app: FastifyInstance, { config, hooks, sessions }: { config: Config; hooks: Hooks; sessions: SessionStore }) {
  const reply = () => ({ hooks: hooks.configured(), problem: hooks.problem, skills: hooks.skills(), runs: hooks.runs() });
  typed(app).route({
    ...routeOf(api.hooks.list),
    handler: async () => {
      await hooks.refreshSkills();
      return reply();
    },
  });

  typed(app).route({
    ...routeOf(api.hooks.test),
    handler: async (request) => {
      // A test runs the user's command: only the workbench's own page may ask for it.
      assertOwnPage(request, config.allowedOrigins, "Hooks are tested only from the workbench's own page (its Origin), never by another site or a script.");
      const { hook, event, session_id: sessionId, call_id: callId } = request.body;
      const configured = hooks.configured().find((h) => h.id === hook);
      if (!configured) throw new UserError("not_found", `No hook ${hook} is configured (HOOKS.json may have changed): reload the Hooks view.`);
      if (configured.event !== event) throw new UserError("unprocessable", `The hook ${hook} runs on ${configured.event}, not ${event}.`);
      if (sessionId) await sessions.require(sessionId);
      const entries = sessionId ? await sessions.entries(sessionId) : [];
      const run = await hooks.test(hook, recordedOccasion(event, sessionId, entries, callId));
      if (!run) throw new UserError("not_found", `No hook ${hook} is configured.`);
      return run;
    },
  });

  typed(app).route({
    ...routeOf(api.hooks.trust),
    handler: async (request) => {
      assertOwnPage(request, config.allowedOrigins, "A skill's hooks are trusted only from the workbench's own page (its Origin).");
      await hooks.trustSkill(request.body.skill, request.body.digest, request.body.trusted);
      return reply();
    },
  });
}
