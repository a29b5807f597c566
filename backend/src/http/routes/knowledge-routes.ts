import type { KnowledgeRemoveReply, KnowledgeUploadReply } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import { UserError } from "../../lib/user-error.js";
import { normalizeUserPath } from "../../paths/confined-path.js";
import type { KnowledgeBase } from "../../knowledge/knowledge-base.js";
import { MAX_DOCUMENT_BYTES } from "../../knowledge/document-kinds.js";

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

  // A document's raw bytes as the body (what a dropped file's fetch sends); only on this plugin's routes.
  app.addContentTypeParser("application/octet-stream", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  /** Adds a document: stored under knowledge/ byte for byte (never over another: 409), then indexed (201). */
  app.post<{ Querystring: { filename?: string } }>(
    "/api/knowledge/documents",
    {
      bodyLimit: MAX_DOCUMENT_BYTES,
      schema: { querystring: { type: "object", properties: { filename: { type: "string", maxLength: 1024 } } } },
    },
    async (request, reply): Promise<KnowledgeUploadReply> => {
      if (!Buffer.isBuffer(request.body)) {
        return reply.code(415).send({ error: "Send the file's bytes as the body, with Content-Type application/octet-stream." });
      }
      const added = await knowledge.add(request.query.filename ?? "", request.body);
      request.log.info({ path: added.path, bytes: added.bytes, state: added.state }, "knowledge document added");
      return reply.code(201).send(added);
    },
  );

  /** Removes a document: to the trash (byte for byte), out of the list and the results. */
  app.delete<{ Querystring: { path?: string } }>("/api/knowledge/documents", async (request): Promise<KnowledgeRemoveReply> => {
    const path = normalizeUserPath(request.query.path, config.locationPrefix);
    return knowledge.remove(path);
  });

  /** Undoes a removal: the trashed document back where it was (409 if its name is taken again). */
  app.post<{ Body: { trash: string } }>(
    "/api/knowledge/documents/restore",
    { schema: { body: { type: "object", required: ["trash"], additionalProperties: false, properties: { trash: { type: "string", maxLength: 64 } } } } },
    async (request) => knowledge.restore(request.body.trash),
  );

  /** Starts a full rebuild and answers at once; progress shows in the status. */
  app.post("/api/knowledge/rebuild", async (_request, reply) => {
    knowledge.rebuild().catch((err) => app.log.error({ err }, "knowledge rebuild failed"));
    return reply.code(202).send({ started: true, status: knowledge.status() });
  });
}
