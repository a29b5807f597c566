/**
 * The browser's only way out: an HTTP proxy on loopback that Chromium is started behind. Every
 * connection it makes — a page, a redirect, an iframe, a `fetch()` or WebSocket from the page — is
 * a CONNECT tunnel or a forwarded request that passes fetch_url's guard (`checkedAddress`) and is
 * made to the address checked, so DNS rebinding cannot slip a private address in afterwards.
 * Each response or tunnel is cut at a byte cap. What was refused is kept for the tool to report.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { checkedAddress, type Lookup } from "../net/guarded-agent.js";

export interface BrowserProxyOptions {
  allowlist: string[];
  lookup?: Lookup;
  /** Bytes one response or tunnel may bring in before it is cut. */
  maxBytes: number;
  connectTimeoutMs: number;
}

/**
 * Chromium's own services (component and extension updates, autofill and optimisation hints), which
 * it calls whatever the flags: refused without a note, so nothing leaves the machine unasked.
 */
const BROWSER_SERVICES = new Set(["update.googleapis.com", "clients2.google.com", "clients2.googleusercontent.com", "content-autofill.googleapis.com", "optimizationguide-pa.googleapis.com", "safebrowsing.googleapis.com", "redirector.gvt1.com"]);

/** Request headers that are for the proxy, not the site (RFC 9110 7.6.1 hop-by-hop, and proxy auth). */
const HOP_BY_HOP = new Set(["proxy-connection", "proxy-authorization", "connection", "keep-alive", "te", "trailer", "upgrade"]);

export class BrowserProxy {
  /** Why requests were refused or cut since the last `takeNotes()`, in words, at most a few. */
  private notes: string[] = [];
  /** Hosts that could not be resolved or reached: worth saying only when the page itself failed. */
  private unreachable: string[] = [];
  private readonly sockets = new Set<Duplex>();

  private constructor(
    private readonly server: Server,
    private readonly options: BrowserProxyOptions,
  ) {}

  static async start(options: BrowserProxyOptions): Promise<BrowserProxy> {
    const server = createServer();
    const proxy = new BrowserProxy(server, options);
    server.on("request", (req, res) => proxy.forward(req, res));
    server.on("connect", (req, socket, head) => proxy.tunnel(req, socket, head));
    // A plain-HTTP WebSocket is tunnelled by Chromium (CONNECT); an upgrade sent here is not ours to pass.
    server.on("upgrade", (_req, socket) => socket.end("HTTP/1.1 501 Not Implemented\r\n\r\n"));
    server.on("connection", (socket) => proxy.track(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** What was refused or cut since the last call (deduplicated), with what was unreachable when asked, and forgets it. */
  takeNotes(withUnreachable: boolean): string[] {
    const notes = [...new Set([...this.notes, ...(withUnreachable ? this.unreachable : [])])];
    this.notes = [];
    this.unreachable = [];
    return notes;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private note(text: string) {
    if (this.notes.length < 20) this.notes.push(text);
  }

  /** The address to connect to, or null after noting why not (a refusal always, a name that does not resolve apart). */
  private async address(host: string, port: number): Promise<string | null> {
    if (BROWSER_SERVICES.has(host.toLowerCase())) return null;
    try {
      return await checkedAddress(host, port, this.options);
    } catch (err) {
      const why = (err as Error).message;
      if (why.startsWith("Refused")) this.note(why);
      else if (this.unreachable.length < 20) this.unreachable.push(why);
      return null;
    }
  }

  private track(socket: Duplex) {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
  }

  private async tunnel(req: IncomingMessage, client: Duplex, head: Buffer) {
    this.track(client);
    client.on("error", () => client.destroy());
    let target: URL;
    try {
      target = new URL(`http://${req.url ?? ""}`);
    } catch {
      return client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
    }
    const port = Number(target.port) || 443;
    const address = await this.address(target.hostname, port);
    if (address === null) return client.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
    const upstream = connect({ host: address, port, timeout: this.options.connectTimeoutMs });
    this.track(upstream);
    upstream.once("timeout", () => upstream.destroy(new Error("connect timeout")));
    upstream.once("connect", () => {
      upstream.setTimeout(0);
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      this.capped(upstream, `${target.hostname}:${port}`).pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => {
      if (!client.destroyed) client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  }

  private async forward(req: IncomingMessage, res: ServerResponse) {
    let target: URL;
    try {
      target = new URL(req.url ?? "");
    } catch {
      return res.writeHead(400).end();
    }
    if (target.protocol !== "http:") return res.writeHead(400).end();
    const port = Number(target.port) || 80;
    const address = await this.address(target.hostname, port);
    if (address === null) return res.writeHead(403, { "content-type": "text/plain; charset=utf-8" }).end("The workbench's guard did not let this request through.");
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    const upstream = httpRequest({ host: address, port, method: req.method, path: `${target.pathname}${target.search}`, headers, setHost: false, timeout: this.options.connectTimeoutMs });
    upstream.on("response", (answer) => {
      upstream.setTimeout(0);
      const kept: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
      res.writeHead(answer.statusCode ?? 502, kept);
      this.capped(answer.socket as Socket, target.href, answer).pipe(res);
    });
    upstream.on("timeout", () => upstream.destroy(new Error("timeout")));
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  }

  /** `stream` (a tunnel's upstream or a response), destroyed once more than maxBytes came through. */
  private capped<T extends NodeJS.ReadableStream & { destroy(error?: Error): unknown }>(socket: Socket, what: string, stream?: T): NodeJS.ReadableStream {
    const source = (stream ?? socket) as NodeJS.ReadableStream & { destroy(error?: Error): unknown };
    let seen = 0;
    source.on("data", (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > this.options.maxBytes) {
        this.note(`${what} was cut off after ${Math.round(this.options.maxBytes / (1024 * 1024))} MB (the browser's limit per response)`);
        source.destroy();
        socket.destroy();
      }
    });
    return source;
  }
}
