import type { FastifyInstance } from "fastify";
import type { UiEventBus } from "../../ui-events/ui-event-bus.js";
import type { WorkspaceWatcher } from "../../ui-events/workspace-watcher.js";
import { openSse, type SseStream } from "../sse.js";

/**
 * `GET /api/events`: what the UI should refresh or toast, as an EventSource stream (GET, so the
 * browser's EventSource works): changes on disk from the watcher, messages from the rest of the backend.
 */
export async function uiEventRoutes(app: FastifyInstance, { watcher, bus }: { watcher: WorkspaceWatcher; bus: UiEventBus }) {
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
    const fromWatcher = watcher.subscribe((event) => sse.send(event));
    const fromBus = bus.subscribe((event) => sse.send(event));
    unsubscribe = () => {
      fromWatcher();
      fromBus();
    };
  });
}
