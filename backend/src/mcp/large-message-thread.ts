/** The thread side of large-message.ts: parses a large message and makes it small. */
import { serveJobs } from "../workers/serve-jobs.js";
import { LARGE_STRING_CHARS, type LargeMessageJob, type LargeMessageReply, OMITTED_CHARS, SCHEMA_TOO_LARGE } from "./large-message.js";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Cuts every string over the limit in place; returns the characters left out. */
function cutStrings(value: unknown): number {
  let omitted = 0;
  const visit = (holder: Json | unknown[], key: string | number) => {
    const v = (holder as Json)[key as string];
    if (typeof v === "string") {
      if (v.length > LARGE_STRING_CHARS) {
        omitted += v.length - LARGE_STRING_CHARS;
        (holder as Json)[key as string] = v.slice(0, LARGE_STRING_CHARS);
      }
    } else if (Array.isArray(v)) v.forEach((_, i) => visit(v, i));
    else if (isObject(v)) for (const k of Object.keys(v)) visit(v, k);
  };
  if (Array.isArray(value)) value.forEach((_, i) => visit(value, i));
  else if (isObject(value)) for (const k of Object.keys(value)) visit(value, k);
  return omitted;
}

function reduce(message: unknown, maxSchemaChars: number): void {
  if (!isObject(message) || !isObject(message.result)) {
    cutStrings(message);
    return;
  }
  const result = message.result;
  if (Array.isArray(result.tools)) {
    for (const tool of result.tools) {
      if (!isObject(tool) || !isObject(tool.inputSchema)) continue;
      const chars = JSON.stringify(tool.inputSchema).length;
      if (chars > maxSchemaChars) tool.inputSchema = { type: "object", [SCHEMA_TOO_LARGE]: chars };
    }
  }
  const omitted = cutStrings(result);
  if (omitted > 0) result._meta = { ...(isObject(result._meta) ? result._meta : {}), [OMITTED_CHARS]: omitted };
}

serveJobs<LargeMessageJob, LargeMessageReply>(({ bytes, maxSchemaChars }) => {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8").replace(/\r$/, "");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { notJson: text.slice(0, 200) };
  }
  reduce(json, maxSchemaChars);
  return { json };
});
