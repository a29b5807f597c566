/** A small local web server for fetch_url tests: pages, JSON, binaries, huge bodies, redirects. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface LocalWeb {
  url: string;
  port: number;
  hits: string[];
  close(): Promise<void>;
}

export const ARTICLE_HTML = `<!doctype html><html><head><title>Cloud Atlas</title>
<style>body { color: red }</style><script>window.secret = "tracking";</script></head>
<body><nav><a href="/home">Home</a> | <a href="/about">About us</a></nav>
<header>Site banner</header>
<main><h1>Clouds</h1><p>Clouds are <strong>visible</strong> masses of droplets. See <a href="https://example.org/cumulus">cumulus</a>.</p>
<h2>Kinds</h2><ul><li>Cirrus</li><li>Stratus</li></ul><script>alert(1)</script></main>
<footer>© footer text</footer></body></html>`;

export async function startLocalWeb(routes: Record<string, (res: import("node:http").ServerResponse, port: number) => void> = {}): Promise<LocalWeb> {
  const hits: string[] = [];
  let port = 0;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    hits.push(req.url ?? "/");
    const custom = routes[path];
    if (custom) return custom(res, port);
    switch (path) {
      case "/page.html":
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE_HTML);
        return;
      case "/data.json":
        res.writeHead(200, { "content-type": "application/json" }).end('{"a":1,"b":[true,null]}');
        return;
      case "/image.png":
        res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
        return;
      case "/big.txt": {
        // 50 MB, written until the client stops reading.
        res.writeHead(200, { "content-type": "text/plain", "content-length": String(50 * 1024 * 1024) });
        const chunk = Buffer.alloc(64 * 1024, "a");
        let sent = 0;
        const pump = () => {
          while (sent < 50 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once("drain", pump);
          }
          res.end();
        };
        res.on("close", () => (sent = Number.POSITIVE_INFINITY));
        pump();
        return;
      }
      case "/to-page":
        res.writeHead(302, { location: "/page.html" }).end();
        return;
      case "/loop":
        res.writeHead(302, { location: "/loop" }).end();
        return;
      default:
        res.writeHead(404, { "content-type": "text/plain" }).end("not here");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
