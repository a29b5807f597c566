import type { FastifyInstance } from "fastify";
import type { WorkspaceWatcher } from "../../workspace/workspace-watcher.js";
import { openSse, type SseStream } from "../sse.js";

/** `GET /api/events`: what the UI should refresh, as an EventSource stream (GET, so the browser's EventSource works). */
export async function uiEventRoutes(app: FastifyInstance, { watcher }: { watcher: WorkspaceWatcher }) {
  const open = new Set<SseStream>();
  // Long-lived streams would hold the server open: end them before it closes.
  app.addHook("preClose", async () => {
    for (const stream of open) stream.end();
  });

  app.get("/api/events", async (_request, reply) => {
    reply.hijack();
    let unsubscribe = () => {};
    const sse = openSse(reply.raw, () => {
      unsubscribe();
      open.delete(sse);
    });
    open.add(sse);
    unsubscribe = watcher.subscribe((event) => sse.send(event));
  });
}
