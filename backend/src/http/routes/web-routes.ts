import { api } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import type { Browsers } from "../../browser/browsers.js";
import { PageNotOpenError, savePage } from "../../browser/save-page.js";
import type { Config } from "../../config/config.js";
import { UserError } from "../../lib/user-error.js";
import type { WebSearch } from "../../web/web-search.js";
import { routeOf, typed } from "../api-route.js";
import { assertOwnPage } from "../own-page.js";

/** The web search provider and the browsers in force, a search to try the provider, the browser's screenshots, a page saved to knowledge. */
export async function webRoutes(app: FastifyInstance, { config, web, browsers }: { config: Config; web: WebSearch; browsers: Browsers }) {
  typed(app).route({ ...routeOf(api.web.status), handler: async () => ({ ...web.status(), browser: await browsers.status() }) });

  typed(app).route({
    ...routeOf(api.web.test),
    handler: async (request) => {
      // A search spends the user's quota with their key: only their own page may ask for one.
      assertOwnPage(request, config.allowedOrigins, "Web search is tried only from the workbench's own page (its Origin).");
      const started = performance.now();
      const { provider, results, cached } = await web.search(request.body.query);
      return { provider, results, cached, duration_ms: Math.round(performance.now() - started) };
    },
  });

  typed(app).route({
    ...routeOf(api.web.screenshot),
    handler: async (request, reply) => {
      const jpeg = await browsers.screenshots.read(request.params.id);
      if (!jpeg) throw new UserError("not_found", `No screenshot ${request.params.id.slice(0, 100)}.`);
      return reply.header("content-type", "image/jpeg").header("cache-control", "private, max-age=31536000, immutable").header("x-content-type-options", "nosniff").send(jpeg as never);
    },
  });

  typed(app).route({
    ...routeOf(api.web.save),
    handler: async (request) => {
      // It writes into knowledge/: only the user's own page may ask.
      assertOwnPage(request, config.allowedOrigins, "Pages are saved to knowledge only from the workbench's own page (its Origin).");
      const session = await browsers.running(request.body.session_id);
      if (!session) throw new UserError("conflict", "This session's browser is closed (it closes after 10 idle minutes and with Stop); ask the agent to open the page again, then save.");
      try {
        return await savePage(session, config.dataRoot, request.body.url);
      } catch (err) {
        if (err instanceof PageNotOpenError) throw new UserError("conflict", `Not saved: ${err.message}.`);
        throw err;
      }
    },
  });
}
