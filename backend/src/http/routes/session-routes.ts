import type { SessionDetail, SessionSummary } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import { assertSessionId } from "../../sessions/session-id.js";
import type { SessionStore } from "../../sessions/session-store.js";

/** `busy`: sessions with a turn running now (their last turn is not interrupted, only unfinished). */
export async function sessionRoutes(app: FastifyInstance, { sessions, busy }: { sessions: SessionStore; busy: ReadonlySet<string> }) {
  app.get("/api/sessions", async (): Promise<{ sessions: SessionSummary[] }> => ({ sessions: await sessions.list() }));

  app.get<{ Params: { id: string } }>("/api/sessions/:id", async (request): Promise<SessionDetail> => {
    const id = assertSessionId(request.params.id);
    return sessions.read(id, { running: busy.has(id) });
  });
}
