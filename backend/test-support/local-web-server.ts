/** A small local web server for fetch_url tests: pages, JSON, binaries, huge bodies, redirects. */
import type { ServerResponse } from "node:http";
import { type Handler, type Site, startSite, writeUntil } from "./browser-site.js";

export type LocalWeb = Site;

export const ARTICLE_HTML = `<!doctype html><html><head><title>Cloud Atlas</title>
<style>body { color: red }</style><script>window.secret = "tracking";</script></head>
<body><nav><a href="/home">Home</a> | <a href="/about">About us</a></nav>
<header>Site banner</header>
<main><h1>Clouds</h1><p>Clouds are <strong>visible</strong> masses of droplets. See <a href="https://example.org/cumulus">cumulus</a>.</p>
<h2>Kinds</h2><ul><li>Cirrus</li><li>Stratus</li></ul><script>alert(1)</script></main>
<footer>© footer text</footer></body></html>`;

export async function startLocalWeb(routes: Record<string, (res: ServerResponse, port: number) => void> = {}): Promise<LocalWeb> {
  const builtIn: Record<string, (res: ServerResponse) => void> = {
    "/page.html": (res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE_HTML),
    "/data.json": (res) => res.writeHead(200, { "content-type": "application/json" }).end('{"a":1,"b":[true,null]}'),
    "/image.png": (res) => res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0])),
    // 50 MB, written until the client stops reading.
    "/big.txt": (res) => {
      res.writeHead(200, { "content-type": "text/plain", "content-length": String(50 * 1024 * 1024) });
      writeUntil(res, 50 * 1024 * 1024, Buffer.alloc(64 * 1024, "a"));
    },
    "/to-page": (res) => res.writeHead(302, { location: "/page.html" }).end(),
    "/loop": (res) => res.writeHead(302, { location: "/loop" }).end(),
  };
  const handlers: Record<string, Handler> = {};
  for (const [path, handle] of Object.entries({ ...builtIn, ...routes })) handlers[path] = (_req, res, port) => handle(res, port);
  return startSite(handlers);
}
