import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { OMITTED_CHARS } from "./large-message.js";

/** The most of one MCP result the model reads; the rest is left out with a marker that says how much. */
export const MAX_RESULT_CHARS = 100_000;

/** Bytes a base64 payload decodes to (never decoded: only its size is told). */
function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

type Block = CallToolResult["content"][number];

/** One content block as text the model can read: binary as a note of its type and size, never its bytes. */
function blockText(block: Block): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return `[image: ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown to the model]`;
    case "audio":
      return `[audio: ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown to the model]`;
    case "resource_link":
      return `[resource link: ${block.uri}${block.name ? ` (${block.name})` : ""}${block.mimeType ? `, ${block.mimeType}` : ""}${block.description ? `: ${block.description}` : ""}]`;
    case "resource": {
      const r = block.resource;
      if ("text" in r && typeof r.text === "string") return `[resource ${r.uri}${r.mimeType ? `, ${r.mimeType}` : ""}]\n${r.text}`;
      const blob = "blob" in r && typeof r.blob === "string" ? r.blob : "";
      return `[resource ${r.uri}: ${r.mimeType ?? "binary"}, ${base64Bytes(blob)} bytes, not shown to the model]`;
    }
    default:
      return `[${(block as { type?: string }).type ?? "unknown"} content]`;
  }
}

export interface ConvertedResult {
  output: string;
  ok: boolean;
  details: Record<string, unknown>;
}

/** Cuts text to the limit, saying how much was left out (`omitted`: characters cut from it before it got here). */
export function capText(text: string, max = MAX_RESULT_CHARS, omitted = 0): { text: string; cut: number } {
  const whole = text.length + omitted;
  if (whole <= max) return { text, cut: 0 };
  const cut = whole - max;
  return { text: `${text.slice(0, max)}\n[… ${cut} more characters left out: the result was ${whole} characters]`, cut };
}

/**
 * A `tools/call` result as the model reads it: text as is, images and audio as a note of their type
 * and size, resource links with their URI, embedded resources as their text, structured content as
 * JSON (when the server sent no text block, which by the spec carries it); `isError` makes it a failed result.
 */
export function convertToolResult(result: CallToolResult): ConvertedResult {
  const content = Array.isArray(result.content) ? result.content : [];
  const parts = content.map(blockText);
  // The spec has a server send structured content as a text block too; only without one is it added here.
  if (result.structuredContent !== undefined && !content.some((b) => b.type === "text")) {
    parts.push(`[structured content]\n${JSON.stringify(result.structuredContent, null, 2)}`);
  }
  const joined = parts.join("\n");
  const isError = result.isError === true;
  // A huge message was cut on its way in (large-message.ts): the marker counts what was cut there too.
  const omitted = Number((result._meta as Record<string, unknown> | undefined)?.[OMITTED_CHARS] ?? 0) || 0;
  const { text, cut } = capText(joined || (isError ? "The tool failed and gave no reason." : "(no content)"), MAX_RESULT_CHARS, omitted);
  const kinds = [...new Set(content.map((b) => b.type))];
  return {
    output: isError ? `Error: ${text}` : text,
    ok: !isError,
    details: { content_types: kinds, ...(cut ? { truncated_chars: cut } : {}), ...(result.structuredContent !== undefined ? { structured: true } : {}) },
  };
}
