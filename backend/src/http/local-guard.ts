import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { loopbackPeerUid } from "./peer-uid.js";

const LOCAL_NAMES = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface LocalGuardOptions {
  /** The port the browser reaches us on; used to recognise our own origin. */
  port: () => number;
  /** The configured bind host, accepted as a Host name when it is a specific name or address. */
  bindHost: string;
  allowedOrigins: string[];
  /**
   * The user tool processes run as, when it differs from the server's (running as root): their
   * requests to the workbench are refused, whatever headers they send.
   */
  sandboxUid: number | null;
}

function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith("[")) return hostHeader.slice(0, hostHeader.indexOf("]") + 1).toLowerCase();
  return hostHeader.replace(/:\d*$/, "").toLowerCase();
}

/**
 * Localhost hardening (PRODUCT.md section 11). A page on another site can make the browser talk
 * to 127.0.0.1: DNS rebinding is stopped by answering only local Host names, and cross-site
 * writes (CSRF, including text/plain form posts) by refusing state-changing requests whose
 * Origin is not ours. Requests without Origin (curl, scripts) are not from a browser page.
 */
export function registerLocalGuard(app: FastifyInstance, options: LocalGuardOptions): void {
  const allowedHosts = new Set(LOCAL_NAMES);
  if (!["0.0.0.0", "::", ""].includes(options.bindHost)) allowedHosts.add(options.bindHost.toLowerCase());

  const refuse = (reply: FastifyReply, message: string) => reply.code(403).send({ error: message });

  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    const host = request.headers.host ?? "";
    const hostname = hostnameOf(host);
    if (!allowedHosts.has(hostname)) {
      return refuse(reply, `Host "${host.slice(0, 100)}" is not allowed: this workbench answers only on local names (127.0.0.1, localhost).`);
    }
    // With SANDBOX_NETWORK=on, tool processes share the host's network and could call this API with
    // any Origin they like: approve their own calls, point the model elsewhere, or just read what
    // waits for approval in every session. Nothing is served to them, reads included.
    if (options.sandboxUid !== null && request.socket.remotePort && request.socket.localPort) {
      const uid = await loopbackPeerUid(request.socket.remotePort, request.socket.localPort);
      if (uid === options.sandboxUid) return refuse(reply, "Requests from the tool sandbox to the workbench are refused.");
    }
    if (SAFE_METHODS.has(request.method)) return;

    const origin = request.headers.origin;
    const fetchSite = request.headers["sec-fetch-site"];
    if (origin !== undefined) {
      const port = options.port();
      const ours = [...allowedHosts].map((h) => `http://${h.includes(":") && !h.startsWith("[") ? `[${h}]` : h}:${port}`);
      if (!ours.includes(origin) && !options.allowedOrigins.includes(origin)) {
        return refuse(reply, `Cross-origin request from "${origin.slice(0, 100)}" refused.`);
      }
    } else if (fetchSite === "cross-site" || fetchSite === "same-site") {
      return refuse(reply, "Cross-site request refused.");
    }
  });
}
