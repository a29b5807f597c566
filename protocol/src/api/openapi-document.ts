import { z } from "zod";
import type { Operation, RawReply } from "./operation.js";

type JsonSchema = Record<string, unknown>;

/**
 * A schema as OpenAPI 3.1 takes it (JSON Schema 2020-12): the schemas with an id (the schema itself,
 * and those inside it) become components, referenced by name. A request body's form and a reply's
 * can differ (a reply's objects close their properties), so input forms are named `<id>Input`.
 */
function jsonSchema(schema: z.ZodType, io: "input" | "output", components: Record<string, JsonSchema>): JsonSchema {
  const converted = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any", cycles: "ref", reused: "inline" }) as JsonSchema;
  const { $defs, $schema: _, ...root } = converted as { $defs?: Record<string, JsonSchema>; $schema?: string };
  const name = (id: string) => (io === "input" ? `${id}Input` : id);
  const retarget = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(retarget);
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/") ? `#/components/schemas/${name(v.slice(8))}` : retarget(v)]),
      );
    }
    return value;
  };
  for (const [id, def] of Object.entries($defs ?? {})) {
    if (id.startsWith("__")) throw new Error(`a recursive schema without an id (${id}): give it one with .meta({ id })`);
    components[name(id)] = retarget(def) as JsonSchema;
  }
  return retarget(root) as JsonSchema;
}

const isRaw = (reply: unknown): reply is RawReply => typeof reply === "object" && reply !== null && "contentType" in reply;

/** `/api/sessions/:id` as OpenAPI writes it: `/api/sessions/{id}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, "{$1}");

const REASONS: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No content",
  400: "The request is malformed or names something that does not exist in it",
  403: "Refused: outside what this API may touch",
  404: "Not found",
  409: "Conflicts with the current state (a turn runs, a name is taken, a file changed)",
  413: "Too large",
  415: "Unsupported content type",
  422: "A name or content that cannot be used as it is",
  429: "The model's server turned the request away for now",
  499: "The turn was stopped",
  500: "Internal error",
  502: "The model's server failed",
  503: "No model is configured",
  504: "The model's server did not answer in time",
  507: "The disk is full",
};

/** The OpenAPI 3.1 document of the operations: parameters, bodies (uploads included), replies per status. */
export function openApiDocument(operations: Array<{ group: string; op: Operation }>, info: { title: string; version: string; description?: string }) {
  const components: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { group, op } of operations) {
    const parameters: unknown[] = [];
    for (const [where, schema] of [["path", op.params], ["query", op.querystring]] as const) {
      if (!schema) continue;
      const object = jsonSchema(schema, "input", components) as { properties?: Record<string, JsonSchema>; required?: string[] };
      for (const [name, property] of Object.entries(object.properties ?? {})) {
        parameters.push({ name, in: where, required: where === "path" || (object.required ?? []).includes(name), schema: property });
      }
    }
    const requestBody = op.body
      ? { required: !(op.body.safeParse(undefined).success), content: { "application/json": { schema: jsonSchema(op.body, "input", components) } } }
      : op.rawBody
        ? { required: true, description: op.rawBody.description, content: Object.fromEntries(op.rawBody.contentTypes.map((type) => [type, { schema: { type: "string", contentMediaType: type } }])) }
        : undefined;
    const responses = Object.fromEntries(
      Object.entries(op.responses).map(([status, reply]) => {
        const description = REASONS[Number(status)] ?? "Reply";
        if (reply === null) return [status, { description }];
        if (isRaw(reply)) {
          const content: Record<string, unknown> = { [reply.contentType]: { schema: { type: "string" } } };
          if (reply.json) content["application/json"] = { schema: jsonSchema(reply.json, "output", components) };
          return [status, { description: `${description}. ${reply.description}`, content }];
        }
        return [status, { description, content: { "application/json": { schema: jsonSchema(reply, "output", components) } } }];
      }),
    );
    const path = openApiPath(op.path);
    paths[path] ??= {};
    paths[path][op.method.toLowerCase()] = {
      summary: op.summary,
      tags: [group],
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }
  return { openapi: "3.1.0", info, paths, components: { schemas: components } };
}
