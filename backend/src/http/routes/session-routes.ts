import type { SessionDetail, SessionSummary } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import { assertSessionId } from "../../sessions/session-id.js";
import type { SessionStore } from "../../sessions/session-store.js";

export async function sessionRoutes(app: FastifyInstance, { sessions }: { sessions: SessionStore }) {
  app.get("/api/sessions", async (): Promise<{ sessions: SessionSummary[] }> => ({ sessions: await sessions.list() }));

  app.get<{ Params: { id: string } }>("/api/sessions/:id", async (request): Promise<SessionDetail> => {
    return sessions.read(assertSessionId(request.params.id));
  });
}
