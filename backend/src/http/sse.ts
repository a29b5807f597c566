import type { ServerResponse } from "node:http";
import type { FastifyReply } from "fastify";
import type { ChatEvent, UiEvent } from "@mini-openclaw/protocol";

const HEARTBEAT_MS = 15_000;
/**
 * What waits for one reader on its connection before the writer holds back: a turn's reader pulls the
 * rest from the turn once this has been read (turn-stream.ts). A stream that is only pushed to (the UI
 * events: small and rare) cuts a reader off past four times this; it comes back by reconnecting.
 */
export const MAX_UNREAD_BYTES = 1024 * 1024;

/** One SSE frame; with `id`, an `id:` line a reconnecting client sends back as `Last-Event-ID`. */
export function sseFrame(event: ChatEvent | UiEvent, id?: number): string {
  return `${id !== undefined ? `id: ${id}\n` : ""}data: ${JSON.stringify(event)}\n\n`;
}

export interface SseStream {
  /** Pushes one event (a reader more than 4 MB behind is cut off; it reconnects). */
  send(event: ChatEvent | UiEvent): void;
  /**
   * Frames encoded once (`sseFrame`, as bytes) and shared by every reader: written as they are, never
   * copied per reader, however far behind a reader is.
   */
  sendFrames(frames: Uint8Array[]): void;
  /** Whether the reader has taken what was written (less than MAX_UNREAD_BYTES waits for it). */
  hasRoom(): boolean;
  /** Calls `ready` when a reader that had no room has taken what waited; returns the way to stop. */
  onRoom(ready: () => void): () => void;
  /** Closes the connection at once, whatever waits on it (a reader that stopped reading). */
  cut(): void;
  end(): void;
  /** Aborted when the client goes away before the stream ends. */
  signal: AbortSignal;
}

/**
 * Opens a `text/event-stream` on a raw response: one `data: {json}` frame per event (with an `id:`
 * line when the event has one), and a
 * comment line as heartbeat so idle proxies keep the connection.
 *
 * A client that goes away is noticed at once, whatever the turn is doing: on the response's
 * "close" (the request's fires as soon as its body is read), and on the socket's "end": Node's
 * HTTP server keeps half-closed sockets open, so a client's FIN would otherwise only surface at
 * the next write (after the model's first token, or never during a long tool call).
 *
 * The stream ends only after its last byte: `Connection: close` makes Node end the socket once
 * the response is flushed (destroying it right after `end()` dropped what a slower reader had not
 * yet taken, `final` included). The body is delimited by that close, not chunked, and written to the
 * socket itself: a response's own writes leave only once the promise jobs queued before them are
 * done, which a model that floods (its chunks parsed in promise jobs) keeps from happening for tens
 * of milliseconds; a socket's write is tried at once.
 *
 * A pushed event (the UI's) goes out at once when it is the first of a burst; those sent while it is
 * on its way are written together once the event loop comes round. A turn's frames are pulled by
 * each reader at its own pace (turn-stream.ts) and written from bytes shared by every reader.
 */
export function openSse(res: ServerResponse, onClientGone: (controller: AbortController) => void): SseStream {
  const controller = new AbortController();
  let ended = false;
  res.useChunkedEncodingByDefault = false;
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    connection: "close",
    "x-accel-buffering": "no",
  });
  res.flushHeaders();
  const socket = res.socket;
  const closed = () => res.destroyed || !socket || socket.destroyed;
  const write = (data: string | Uint8Array) => {
    if (!closed()) socket!.write(data);
  };
  const heartbeat = setInterval(() => write(": ping\n\n"), HEARTBEAT_MS);
  heartbeat.unref();
  const gone = () => {
    clearInterval(heartbeat);
    if (!ended) onClientGone(controller);
    ended = true;
  };
  res.on("close", gone);
  res.socket?.once("end", gone);
  let pending = "";
  let burst = false;
  const unread = () => (socket?.writableLength ?? 0) + pending.length;
  const flush = () => {
    burst = false;
    const text = pending;
    pending = "";
    if (text) write(text);
  };
  const sendText = (frame: string) => {
    if (ended || closed()) return;
    if (burst) {
      pending += frame;
      return;
    }
    write(frame);
    burst = true;
    setImmediate(flush);
  };
  return {
    signal: controller.signal,
    send(event) {
      sendText(sseFrame(event));
      // Pushed events have nowhere to wait but the connection: a reader that does not read is cut off.
      if (unread() > 4 * MAX_UNREAD_BYTES) res.destroy();
    },
    sendFrames(frames) {
      if (ended || closed() || frames.length === 0) return;
      if (frames.length === 1) return write(frames[0]);
      // One write of them all (writev), from the shared bytes.
      socket!.cork();
      for (const frame of frames) socket!.write(frame);
      process.nextTick(() => socket!.uncork());
    },
    hasRoom: () => !closed() && unread() < MAX_UNREAD_BYTES,
    onRoom(ready) {
      socket?.on("drain", ready);
      return () => socket?.off("drain", ready);
    },
    cut: () => res.destroy(),
    end() {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      res.socket?.off("end", gone);
      flush();
      res.end();
    },
  };
}

/**
 * The long-lived streams of one route group: each opened on a hijacked reply and wired by its owner,
 * unwired when the client goes or the stream ends, and all ended before the server closes (they would
 * hold it open).
 */
export class SseStreams {
  private readonly streams = new Set<SseStream>();

  /** `wire` starts sending to the stream and returns how to stop; ending the stream it was given is allowed at any time. */
  open(reply: FastifyReply, wire: (stream: SseStream) => () => void): void {
    reply.hijack();
    let unwire = () => {};
    const sse = openSse(reply.raw, () => {
      unwire();
      this.streams.delete(sse);
    });
    this.streams.add(sse);
    unwire = wire({
      ...sse,
      end: () => {
        this.streams.delete(sse);
        sse.end();
      },
    });
  }

  endAll(): void {
    for (const stream of this.streams) stream.end();
    this.streams.clear();
  }
}
