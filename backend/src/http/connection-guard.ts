/**
 * The server stays reachable while clients drip their headers (slowloris), however many: each
 * request must bring its headers within HEADERS_TIMEOUT_MS, and the connections held open stay below
 * the process's open-file limit. When the cap is reached, a new connection takes the place of the
 * oldest one with no request in flight (headers still dripping, or idle between requests), so a
 * client that sends a whole request at once (the UI, a health check) always gets in.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

export const HEADERS_TIMEOUT_MS = 10_000;
/** A request's body (uploads included) must arrive within this. Long responses (SSE) are not limited. */
export const REQUEST_TIMEOUT_MS = 120_000;
/** Files, watchers, child processes' pipes: what the process keeps for itself below its limit. */
const RESERVED_FDS = 256;

/** The soft limit on open files (`ulimit -n`), from /proc; null where it cannot be read. */
export function openFileLimit(): number | null {
  try {
    const line = readFileSync("/proc/self/limits", "utf8").split("\n").find((l) => l.startsWith("Max open files"));
    const soft = line?.split(/\s{2,}/)[1];
    return soft && /^\d+$/.test(soft) ? Number(soft) : null;
  } catch {
    return null;
  }
}

/** How many connections to hold at most: below the open-file limit, with room for the rest. */
export function connectionCap(limit = openFileLimit()): number {
  if (limit === null) return 4096;
  return Math.max(64, Math.min(limit - RESERVED_FDS, Math.floor(limit * 0.85)));
}

/** An HTTP server with short header and request timeouts and a cap on connections (for Fastify's `serverFactory`). */
export function createGuardedServer(handler: (req: IncomingMessage, res: ServerResponse) => void, cap = connectionCap()): Server {
  const server = createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, keepAliveTimeout: 5_000, connectionsCheckingInterval: 1_000 },
    handler,
  );
  /** Open connections, oldest first, with how many requests each has in flight. */
  const open = new Map<Socket, number>();
  server.on("connection", (socket: Socket) => {
    open.set(socket, 0);
    socket.once("close", () => open.delete(socket));
    if (open.size <= cap) return;
    for (const [old, inFlight] of open) {
      if (inFlight === 0 && old !== socket) {
        old.destroy();
        open.delete(old);
        return;
      }
    }
    // Every other connection is serving a request: this one waits for nothing.
    socket.destroy();
  });
  // What Node answers by itself (headers too large, a request that is not HTTP, too slow) in the API's
  // error shape, like every other error reply.
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
    const [status, reason, error, code] =
      err.code === "HPE_HEADER_OVERFLOW"
        ? [431, "Request Header Fields Too Large", "The request's headers are too large.", "too_large"]
        : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "Request Timeout", "The request did not arrive in time.", "invalid_request"]
          : [400, "Bad Request", "The request is not valid HTTP.", "invalid_request"];
    const body = JSON.stringify({ error, code });
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    if (!open.has(socket)) return;
    open.set(socket, (open.get(socket) ?? 0) + 1);
    res.once("close", () => {
      if (open.has(socket)) open.set(socket, Math.max(0, (open.get(socket) ?? 1) - 1));
    });
  });
  return server;
}
