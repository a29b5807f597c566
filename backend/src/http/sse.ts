import type { ServerResponse } from "node:http";
import type { ChatEvent, UiEvent } from "@mini-openclaw/protocol";

const HEARTBEAT_MS = 15_000;

export interface SseStream {
  send(event: ChatEvent | UiEvent): void;
  end(): void;
  /** Aborted when the client goes away before the stream ends. */
  signal: AbortSignal;
}

/**
 * Opens a `text/event-stream` on a raw response: one `data: {json}` frame per event, and a
 * comment line as heartbeat so idle proxies keep the connection. Disconnects are detected on
 * the response's "close" (the request's fires as soon as its body is read).
 */
export function openSse(res: ServerResponse, onClientGone: (controller: AbortController) => void): SseStream {
  const controller = new AbortController();
  let ended = false;
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive",
    "x-accel-buffering": "no",
  });
  res.flushHeaders();
  const heartbeat = setInterval(() => res.write(": ping\n\n"), HEARTBEAT_MS);
  heartbeat.unref();
  res.on("close", () => {
    clearInterval(heartbeat);
    if (!ended) onClientGone(controller);
    ended = true;
  });
  return {
    signal: controller.signal,
    send(event) {
      if (!ended && !res.destroyed) res.write(`data: ${JSON.stringify(event)}\n\n`);
    },
    end() {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      res.end();
      res.socket?.destroy();
    },
  };
}
