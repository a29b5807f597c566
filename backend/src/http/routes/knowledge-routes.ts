import type { FastifyInstance } from "fastify";
import { UserError } from "../../lib/user-error.js";
import { normalizeUserPath } from "../../paths/confined-path.js";
import type { KnowledgeBase } from "../../knowledge/knowledge-base.js";

export async function knowledgeRoutes(app: FastifyInstance, { knowledge, config }: { knowledge: KnowledgeBase; config: { locationPrefix: string } }) {
  app.get<{ Querystring: { q?: string; k?: string } }>("/api/knowledge/search", async (request) => {
    const q = request.query.q?.trim();
    if (!q) throw new UserError(400, "Query parameter 'q' is required.");
    if (q.length > 2000) throw new UserError(413, "The query is over 2000 characters.");
    const k = request.query.k === undefined ? 5 : Number(request.query.k);
    if (!Number.isInteger(k) || k < 1 || k > 50) throw new UserError(400, "'k' must be a whole number from 1 to 50.");
    return knowledge.search(q, k);
  });

  app.get("/api/knowledge/status", async () => knowledge.status());

  app.get("/api/knowledge/documents", async () => ({ documents: knowledge.documents() }));

  /** A document's extracted text (PDF by page, Word, slides...), for a citation opened in the Inspector. */
  app.get<{ Querystring: { path?: string } }>("/api/knowledge/source", async (request) =>
    knowledge.source(normalizeUserPath(request.query.path, config.locationPrefix)),
  );

  /** Starts a full rebuild and answers at once; progress shows in the status. */
  app.post("/api/knowledge/rebuild", async (_request, reply) => {
    knowledge.rebuild().catch((err) => app.log.error({ err }, "knowledge rebuild failed"));
    return reply.code(202).send({ started: true, status: knowledge.status() });
  });
}
