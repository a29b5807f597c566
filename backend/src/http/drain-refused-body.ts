/**
 * A body refused for its size is still read, up to a bound, before the connection closes.
 *
 * Fastify answers 413 as soon as it knows the body is too large and asks for `Connection: close`:
 * Node then closes the socket while the client is still sending, the client's next write meets a
 * reset, and many clients (Node's fetch, a browser on a slow upload) report EPIPE instead of the
 * 413 that was already on its way. So the rest of the body is read and thrown away, up to
 * `DRAIN_MAX_BYTES` and `DRAIN_MAX_MS`, and only a client past those bounds is cut off.
 */
import type { IncomingMessage } from "node:http";

/** Bytes of a refused body read and discarded at most, past the limit that refused it. */
export const DRAIN_MAX_BYTES = 128 * 1024 * 1024;
/** How long a refused upload may go on being sent before its connection is closed. */
export const DRAIN_MAX_MS = 30_000;

export function drainRefusedBody(request: IncomingMessage): void {
  if (request.readableEnded || request.destroyed) return;
  let drained = 0;
  const cut = () => request.socket?.destroy();
  const timer = setTimeout(cut, DRAIN_MAX_MS);
  timer.unref();
  const stop = () => clearTimeout(timer);
  request.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_MAX_BYTES) {
      stop();
      cut();
    }
  });
  request.once("end", stop);
  request.once("close", stop);
  request.resume();
}
