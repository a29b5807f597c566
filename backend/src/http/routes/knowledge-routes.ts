import { api, MAX_KNOWLEDGE_QUERY_CHARS, MAX_KNOWLEDGE_RESULTS } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import { UserError } from "../../lib/user-error.js";
import { normalizeUserPath } from "../../paths/confined-path.js";
import type { KnowledgeBase } from "../../knowledge/knowledge-base.js";
import { MAX_DOCUMENT_BYTES } from "../../knowledge/document-kinds.js";
import { routeOf, typed } from "../api-route.js";

export async function knowledgeRoutes(app: FastifyInstance, { knowledge, config }: { knowledge: KnowledgeBase; config: { locationPrefix: string } }) {
  typed(app).route({
    ...routeOf(api.knowledge.search),
    handler: async (request) => {
      const q = request.query.q?.trim();
      if (!q) throw new UserError("invalid_request", "Query parameter 'q' is required.");
      if (q.length > MAX_KNOWLEDGE_QUERY_CHARS) throw new UserError("too_large", `The query is over ${MAX_KNOWLEDGE_QUERY_CHARS} characters.`);
      const k = request.query.k === undefined ? 5 : Number(request.query.k);
      if (!Number.isInteger(k) || k < 1 || k > MAX_KNOWLEDGE_RESULTS) throw new UserError("invalid_request", `'k' must be a whole number from 1 to ${MAX_KNOWLEDGE_RESULTS}.`);
      return knowledge.search(q, k);
    },
  });

  typed(app).route({ ...routeOf(api.knowledge.status), handler: async () => knowledge.status() });

  typed(app).route({ ...routeOf(api.knowledge.documents), handler: async () => ({ documents: knowledge.documents() }) });

  /** A document's extracted text (PDF by page, Word, slides...), for a citation opened in the Inspector. */
  typed(app).route({
    ...routeOf(api.knowledge.source),
    handler: async (request) => knowledge.source(normalizeUserPath(request.query.path, config.locationPrefix)),
  });

  // A document's raw bytes as the body (what a dropped file's fetch sends); only on this plugin's routes.
  app.addContentTypeParser("application/octet-stream", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  /** Adds a document: stored under knowledge/ byte for byte (never over another: 409), then indexed (201). */
  typed(app).route({
    ...routeOf(api.knowledge.upload),
    bodyLimit: MAX_DOCUMENT_BYTES,
    handler: async (request, reply) => {
      if (!Buffer.isBuffer(request.body)) {
        throw new UserError("unsupported_type", "Send the file's bytes as the body, with Content-Type application/octet-stream.");
      }
      const added = await knowledge.add(request.query.filename ?? "", request.body);
      request.log.info({ path: added.path, bytes: added.bytes, state: added.state }, "knowledge document added");
      return reply.code(201).send(added);
    },
  });

  /** Removes a document: to the trash (byte for byte), out of the list and the results. */
  typed(app).route({
    ...routeOf(api.knowledge.remove),
    handler: async (request) => knowledge.remove(normalizeUserPath(request.query.path, config.locationPrefix)),
  });

  /** Undoes a removal: the trashed document back where it was (409 if its name is taken again). */
  typed(app).route({ ...routeOf(api.knowledge.restore), handler: async (request) => knowledge.restore(request.body.trash) });

  /** Starts a full rebuild and answers at once; progress shows in the status. */
  typed(app).route({
    ...routeOf(api.knowledge.rebuild),
    handler: async (_request, reply) => {
      knowledge.checkRebuild();
      knowledge.rebuild().catch((err) => app.log.error({ err }, "knowledge rebuild failed"));
      return reply.code(202).send({ started: true as const, status: knowledge.status() });
    },
  });
}
