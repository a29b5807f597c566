import type { Agent } from "undici";
import { fetch } from "undici";
import { z } from "zod";
import { BlockedAddressError } from "../net/guarded-agent.js";
import { readCapped } from "../net/read-capped.js";
import { type CoreTool, defineTool, type ToolResult } from "./core-tool.js";

export const FETCH_LIMITS = {
  maxRedirects: 5,
  timeoutMs: 20_000,
  maxDownloadBytes: 5 * 1024 * 1024,
  defaultChars: 20_000,
  maxChars: 100_000,
};

const schema = z.object({
  url: z.string().describe("An http:// or https:// URL."),
  max_chars: z.number().int().min(100).max(FETCH_LIMITS.maxChars).optional().describe(`Characters to return (default ${FETCH_LIMITS.defaultChars}).`),
  start: z.number().int().min(0).optional().describe("Character offset to start from, to read on in a long page."),
});

type Kind = "html" | "json" | "text" | "binary";

function kindOf(contentType: string, head: Uint8Array): Kind {
  const type = contentType.split(";")[0].trim().toLowerCase();
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type === "application/json" || type.endsWith("+json")) return "json";
  if (type.startsWith("text/") || /(xml|javascript|ecmascript|csv|yaml|toml|x-sh)/.test(type)) return "text";
  if (type === "" || type === "application/octet-stream") {
    if (head.subarray(0, 4096).includes(0)) return "binary";
    const start = new TextDecoder().decode(head.subarray(0, 512)).trimStart().toLowerCase();
    if (start.startsWith("<!doctype html") || start.startsWith("<html")) return "html";
    return type === "" ? "text" : "binary";
  }
  return "binary";
}

function charsetOf(contentType: string): string {
  const label = /charset=["']?([\w-]+)/i.exec(contentType)?.[1] ?? "utf-8";
  try {
    new TextDecoder(label);
    return label;
  } catch {
    return "utf-8";
  }
}

function refuse(message: string, details: Record<string, unknown> = {}): ToolResult {
  return { ok: false, output: `Error: ${message}`, details };
}

/** What failed, in words: undici wraps the connector's error as `cause`. */
function explain(err: unknown): string {
  const cause = (err as { cause?: unknown })?.cause;
  if (cause instanceof BlockedAddressError) return cause.message;
  if (err instanceof BlockedAddressError) return err.message;
  if ((err as Error)?.name === "TimeoutError") return `the request took longer than ${FETCH_LIMITS.timeoutMs / 1000} s`;
  const code = (cause as { code?: string })?.code;
  const message = (cause as Error)?.message ?? (err as Error)?.message ?? String(err);
  return code ? `${message} (${code})` : message;
}

export async function fetchUrl(
  input: z.infer<typeof schema>,
  dispatcher: Agent,
  signal: AbortSignal,
): Promise<ToolResult> {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return refuse(`"${input.url.slice(0, 200)}" is not a valid URL.`);
  }
  const timeout = AbortSignal.timeout(FETCH_LIMITS.timeoutMs);
  const combined = AbortSignal.any([signal, timeout]);
  const redirects: string[] = [];
  let response;
  for (;;) {
    if (url.protocol !== "http:" && url.protocol !== "https:") return refuse(`only http and https URLs can be fetched (got ${url.protocol}).`);
    if (url.username || url.password) return refuse("URLs with credentials are refused.");
    try {
      response = await fetch(url, {
        dispatcher,
        redirect: "manual",
        signal: combined,
        headers: {
          "user-agent": "mini-openclaw/0.1 (local agent workbench)",
          accept: "text/html,application/xhtml+xml,application/json;q=0.9,text/plain;q=0.8,*/*;q=0.5",
        },
      });
    } catch (err) {
      return refuse(`fetching ${url.href} failed: ${explain(err)}`, { url: input.url, redirects });
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (redirects.length >= FETCH_LIMITS.maxRedirects) return refuse(`more than ${FETCH_LIMITS.maxRedirects} redirects.`, { redirects });
      url = new URL(location, url);
      redirects.push(url.href);
      continue;
    }
    break;
  }

  let bytes: Uint8Array;
  let cut: boolean;
  try {
    ({ bytes, cut } = await readCapped(response.body as ReadableStream<Uint8Array> | null, FETCH_LIMITS.maxDownloadBytes));
  } catch (err) {
    return refuse(`reading ${url.href} failed: ${explain(err)}`);
  }
  const contentType = response.headers.get("content-type") ?? "";
  const kind = kindOf(contentType, bytes);
  const details: Record<string, unknown> = {
    url: input.url,
    final_url: url.href,
    status: response.status,
    content_type: contentType,
    bytes: bytes.length,
    download_cut: cut,
    redirects,
  };
  if (kind === "binary") {
    return refuse(`${url.href} is binary content (${contentType || "unknown type"}, ${bytes.length}${cut ? "+" : ""} bytes); only text, HTML and JSON are returned.`, details);
  }
  const text = new TextDecoder(charsetOf(contentType)).decode(bytes);
  let body = text;
  let title = "";
  // The converter (a DOM and turndown) loads on the first page fetched, not with the server.
  if (kind === "html") ({ title, markdown: body } = (await import("../net/html-to-markdown.js")).htmlToMarkdown(text));
  else if (kind === "json" && !cut) {
    try {
      body = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      body = text;
    }
  }
  const start = input.start ?? 0;
  const maxChars = input.max_chars ?? FETCH_LIMITS.defaultChars;
  const shown = body.slice(start, start + maxChars);
  const notes: string[] = [];
  if (cut) notes.push(`[download cut off at the ${FETCH_LIMITS.maxDownloadBytes / 1024 / 1024} MB limit]`);
  if (start + maxChars < body.length) {
    notes.push(`[showing characters ${start}-${start + shown.length} of ${body.length}; call fetch_url with start=${start + shown.length} to read on]`);
  }
  const header = [`URL: ${url.href}`, `Status: ${response.status}`, `Content-Type: ${contentType || "unknown"}`, ...(title ? [`Title: ${title}`] : [])];
  return {
    ok: response.status < 400,
    output: `${header.join("\n")}\n\n${shown}${notes.length ? `\n\n${notes.join("\n")}` : ""}`,
    details: { ...details, chars: body.length, kind },
  };
}

/** `fetch_url`: a GET through the guarded dispatcher. */
export const fetchUrlTool = ({ fetchAgent }: { fetchAgent: Agent }): CoreTool<typeof schema> =>
  defineTool({
  name: "fetch_url",
  description:
    "HTTP(S) GET a URL. HTML comes back as clean Markdown of the main content, JSON pretty-printed, text as is; " +
    "binaries are refused. Private, loopback and link-local addresses are blocked. Long pages are returned in parts " +
    "(max_chars, start).",
  schema,
  execute: (input, { signal }) => fetchUrl(input, fetchAgent, signal),
  });
