import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/**
 * Serves the built UI on the same origin as the API, so there is one URL to open and no
 * cross-origin requests. Unknown non-API paths fall back to the app's index page.
 */
export async function registerStaticUi(app: FastifyInstance, frontendDir: string): Promise<boolean> {
  if (!existsSync(join(frontendDir, "index.html"))) {
    app.get("/", async (_request, reply) =>
      reply
        .type("text/html; charset=utf-8")
        .send(
          "<!doctype html><title>mini OpenClaw</title><p>The UI is not built yet: run <code>pnpm build</code>, then reload. The API is up at <a href=\"/api/health\">/api/health</a>.</p>",
        ),
    );
    return false;
  }
  await app.register(fastifyStatic, { root: frontendDir, wildcard: false, index: ["index.html"] });
  app.get("/*", async (request, reply) => {
    if (request.url.startsWith("/api/")) return reply.code(404).send({ error: `Not found: ${request.method} ${request.url.split("?")[0].slice(0, 200)}` });
    return reply.sendFile("index.html");
  });
  return true;
}
