/** A local site for the web tests: a handler per path (with the request), every request recorded; a body written until the client stops reading; an outline's references read. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Handler = (req: IncomingMessage, res: ServerResponse, port: number) => void;

export interface Site {
  url: string;
  port: number;
  /** Every request's path, and `upgrade <path>` for a WebSocket handshake. */
  hits: string[];
  close(): Promise<void>;
}

export const html = (res: ServerResponse, body: string) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);

/** Writes `chunk` again and again, `total` bytes in all, as fast as the client reads; stops when it goes away. */
export function writeUntil(res: ServerResponse, total: number, chunk: string | Buffer): void {
  let sent = 0;
  const pump = () => {
    while (sent < total) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", pump);
    }
    res.end();
  };
  res.on("error", () => {});
  res.on("close", () => (sent = Number.POSITIVE_INFINITY));
  pump();
}

export async function startSite(routes: Record<string, Handler>): Promise<Site> {
  const hits: string[] = [];
  let port = 0;
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? "/");
    const route = routes[(req.url ?? "/").split("?")[0]];
    if (route) route(req, res, port);
    else res.writeHead(404).end("not here");
  });
  server.on("upgrade", (req, socket) => {
    hits.push(`upgrade ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** The reference of the first outline line `pattern` matches (`[ref=e12]` → `e12`), as a model reads it off the outline. */
export function refOf(outline: string, pattern: RegExp): string {
  const line = outline.split("\n").find((l) => pattern.test(l));
  const ref = line && /\[ref=([a-z0-9]+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no ${pattern} in the outline:\n${outline}`);
  return ref;
}
