import { api } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config/config.js";
import type { WebSearch } from "../../web/web-search.js";
import { routeOf, typed } from "../api-route.js";
import { assertOwnPage } from "../own-page.js";

/** The web search provider in force, and a search to try it (as the Model dialog tries a model). */
export async function webRoutes(app: FastifyInstance, { config, web }: { config: Config; web: WebSearch }) {
  typed(app).route({ ...routeOf(api.web.status), handler: async () => web.status() });

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
}
