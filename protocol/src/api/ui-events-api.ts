import { operation } from "./operation.js";

export const uiEventsApi = {
  events: operation({
    method: "GET",
    path: "/api/events",
    summary: "What every open page should refresh or show, as an EventSource stream",
    responses: { 200: { contentType: "text/event-stream", description: "One SSE frame per `UiEvent`: a list to refresh, a file changed on disk, a toast, a turn that started or ended, a queue that changed." } },
  }),
};
