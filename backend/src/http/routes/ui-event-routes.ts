import { api } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import type { UiEventBus } from "../../ui-events/ui-event-bus.js";
import type { WorkspaceWatcher } from "../../ui-events/workspace-watcher.js";
import { routeOf, typed } from "../api-route.js";
import { SseStreams } from "../sse.js";

/**
 * `GET /api/events`: what the UI should refresh or toast, as an EventSource stream (GET, so the
 * browser's EventSource works): changes on disk from the watcher, messages from the rest of the backend.
 */
export async function uiEventRoutes(app: FastifyInstance, { watcher, bus }: { watcher: WorkspaceWatcher; bus: UiEventBus }) {
  const streams = new SseStreams();
  app.addHook("preClose", async () => streams.endAll());

  typed(app).route({
    ...routeOf(api.uiEvents.events),
    handler: async (_request, reply) => {
      streams.open(reply, (sse) => {
        const fromWatcher = watcher.subscribe((event) => sse.send(event));
        const fromBus = bus.subscribe((event) => sse.send(event));
        return () => {
          fromWatcher();
          fromBus();
        };
      });
    },
  });
}
