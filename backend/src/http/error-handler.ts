import { apiErrorCodeFor, httpStatusOf } from "@mini-openclaw/protocol";
import type { FastifyError, FastifyInstance } from "fastify";
import { isUserError } from "../lib/user-error.js";
import { drainRefusedBody } from "./drain-refused-body.js";

/** Fastify's own error codes, worded for a person. */
const FRIENDLY: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: "The request body is not valid JSON.",
  FST_ERR_CTP_EMPTY_JSON_BODY: "The request body is empty; send a JSON object.",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "Unsupported Content-Type: send application/json.",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "The Content-Length header does not match the body.",
};

/**
 * Every error leaves as `{ "error": "...", "code": "..." }` with a fitting status, and never with a
 * stack trace. The code is added here, once, for every error reply (thrown or sent by a route), from
 * its status unless the error named a more precise one.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.addHook("preSerialization", async (_request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== "object" || payload === null || !("error" in payload) || "code" in payload) return payload;
    return { ...payload, code: apiErrorCodeFor(reply.statusCode) };
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isUserError(error)) return reply.code(httpStatusOf(error.code)).send({ error: error.message, code: error.code, ...error.extra });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOSPC" || code === "EDQUOT") {
      return reply.code(507).send({ error: "The disk is full: nothing was saved, and the previous content is intact." });
    }
    if (code === "EROFS" || code === "EACCES" || code === "EPERM") {
      return reply.code(500).send({ error: `The file could not be written (${code}); the previous content is intact.` });
    }
    if (error.validation) {
      return reply.code(400).send({ error: `Invalid request: ${error.message}` });
    }
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      // The client may still be sending: read the rest (bounded) so it gets to read this answer.
      reply.removeHeader("connection");
      drainRefusedBody(request.raw);
      return reply.code(413).send({ error: `The request body is too large (limit ${request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit} bytes).` });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: FRIENDLY[error.code] ?? error.message });
    }
    request.log.error({ err: error }, "request failed");
    return reply.code(500).send({ error: "Internal error; the details are in the server log." });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ error: `Not found: ${request.method} ${request.url.split("?")[0].slice(0, 200)}` });
  });
}
