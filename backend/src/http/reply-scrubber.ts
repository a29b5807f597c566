import type { FastifyInstance } from "fastify";
import type { SecretScrubber } from "../secrets/secret-scrubber.js";

/**
 * Every reply's text passes the secret scrubber on its way out: an upstream error a route repeats, a
 * session export, a model test's answer. A file's own content (`GET /api/files`) is the user's and
 * leaves as it is; streams (chat, UI events) are scrubbed event by event where they are made.
 */
export function registerReplyScrubber(app: FastifyInstance, secrets: SecretScrubber): void {
  app.addHook("onSend", async (request, _reply, payload) => {
    if (typeof payload !== "string" || (request.method === "GET" && request.routeOptions.url === "/api/files")) return payload;
    return secrets.scrub(payload);
  });
}
