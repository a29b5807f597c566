/**
 * MCP tools bring JSON Schema, not zod: compiled here once per schema (Ajv, the JSON Schema validator
 * the MCP SDK itself uses) to know it is a schema at all, and to check a call's arguments before it
 * goes to the server, in words the model can fix them from.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
const compiled = new Map<string, ValidateFunction>();
const MAX_SCHEMA_CHARS = 100_000;

/** What is sent to the model and compiled: the schema without `$schema` (servers name drafts Ajv 2020 and some model servers refuse). */
export function plainParameters(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _drop, ...rest } = schema;
  return rest;
}

/** The schema's compiled check, or why it is not one a tool can use (not an object schema, not JSON Schema). */
export function compileToolSchema(schema: unknown): ValidateFunction | string {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return "its input schema is not an object";
  const plain = plainParameters(schema as Record<string, unknown>);
  if (plain.type !== "object") return `its input schema is not an object schema (type ${JSON.stringify(plain.type ?? null)})`;
  const text = JSON.stringify(plain);
  if (text.length > MAX_SCHEMA_CHARS) return `its input schema is ${text.length} characters, over ${MAX_SCHEMA_CHARS}`;
  const known = compiled.get(text);
  if (known) return known;
  try {
    const validate = ajv.compile(plain);
    compiled.set(text, validate);
    return validate;
  } catch (err) {
    return `its input schema is not valid JSON Schema: ${(err as Error).message}`;
  }
}

/** Why the arguments fail the schema, as `path: message` parts; null when they pass. */
export function argumentProblems(validate: ValidateFunction, args: unknown): Array<{ path: string[]; message: string }> | null {
  if (validate(args)) return null;
  return (validate.errors ?? []).map((e) => ({ path: e.instancePath.split("/").filter(Boolean), message: e.message ?? "is invalid" }));
}
