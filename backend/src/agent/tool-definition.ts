import { z } from "zod";
import type { CoreTool } from "../tools/core-tool.js";

const EDGE = Number.MAX_SAFE_INTEGER;

/** A JSON Schema with what some servers mis-parse taken out: `$schema`, and integer bounds at ±2^53-1 (zod's way of saying "any integer"). */
function plain(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(plain);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$schema") continue;
    if ((key === "maximum" && value === EDGE) || (key === "minimum" && value === -EDGE)) continue;
    out[key] = plain(value);
  }
  return out;
}

/**
 * A tool as the model is told about it: an OpenAI function definition whose parameters are the
 * plainest JSON Schema that every OpenAI-compatible server accepts (llama.cpp's grammar builder
 * among them).
 */
export function toolDefinition(tool: CoreTool) {
  const parameters = tool.parameters ?? (plain(z.toJSONSchema(tool.schema)) as Record<string, unknown>);
  return { type: "function" as const, function: { name: tool.name, description: tool.description, parameters } };
}
