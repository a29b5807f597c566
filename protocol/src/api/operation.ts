/**
 * The API as one contract: each operation's method, path, parameters, body and replies (per status)
 * as zod schemas. The backend's routes validate and serialize from these, the OpenAPI document is
 * generated from them (openapi-document.ts), and the frontend's client is typed by them.
 */
import { z } from "zod";
import { chatErrorCodeSchema } from "../chat-events.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Why a request failed, stable for clients to act on and to word in the user's language (the
 * `error` beside it is the server's own words, in English, with the specifics). A failed turn's
 * reply carries its turn's code (`chatErrorCodeSchema`); every other error one of these, by status.
 */
export const apiErrorCodeSchema = z.enum([
  /** 400: the body, a parameter or a file's content is not what the operation takes. */
  "invalid_request",
  /** 403: refused by a rule (a path outside the data root, a settings file, approvals granted only from the page). */
  "refused",
  "not_found",
  /** 409: the thing changed or is busy (a file edited since, a turn running). */
  "conflict",
  "too_large",
  "unsupported_type",
  /** 422: well-formed but not possible (a past date, an unknown profile). */
  "unprocessable",
  "limit_reached",
  /** 502: a server the workbench called (a model, an MCP server) failed. */
  "upstream_failed",
  /** 503: not available now (shutting down, an MCP server not connected). */
  "unavailable",
  "disk_full",
  /** 504: gave up waiting (a file read on a hung file system). */
  "timed_out",
  ...chatErrorCodeSchema.options,
]);
export type ApiErrorCode = z.infer<typeof apiErrorCodeSchema>;

/** Every error leaves as `{ "error": "...", "code": "..." }` (some add facts: the conflicting files, a turn's events). */
export const apiErrorSchema = z.looseObject({ error: z.string(), code: apiErrorCodeSchema }).meta({ id: "ApiError" });

/**
 * The HTTP status of each code: the one place codes become statuses. The server's code throws codes
 * (`UserError`); the transport answers with this status. A status's own code (for a reply that
 * names none) is the first code listed with it, so the general codes come before the turn's.
 */
const STATUS_OF: Record<ApiErrorCode, number> = {
  invalid_request: 400,
  refused: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_type: 415,
  unprocessable: 422,
  limit_reached: 429,
  upstream_failed: 502,
  unavailable: 503,
  disk_full: 507,
  timed_out: 504,
  model_not_configured: 503,
  model_unreachable: 502,
  model_auth: 502,
  model_error: 502,
  model_bad_response: 502,
  model_timeout: 504,
  rate_limited: 429,
  context_too_long: 502,
  tools_unsupported: 502,
  vision_unsupported: 422,
  aborted: 499,
  hook_stopped: 422,
  storage: 507,
  internal: 500,
};

/** The HTTP status an error with this code answers with. */
export const httpStatusOf = (code: ApiErrorCode): number => STATUS_OF[code];

const CODE_FOR_STATUS = new Map<number, ApiErrorCode>();
for (const code of apiErrorCodeSchema.options) if (!CODE_FOR_STATUS.has(STATUS_OF[code])) CODE_FOR_STATUS.set(STATUS_OF[code], code);

/** The code an error reply of this status carries when nothing more specific is known. */
export const apiErrorCodeFor = (status: number): ApiErrorCode => CODE_FOR_STATUS.get(status) ?? (status >= 500 ? "internal" : "invalid_request");
export type ApiError = z.infer<typeof apiErrorSchema>;

/** A reply that is not JSON (an SSE stream, a Markdown export), or may be JSON instead (`json`: when asked for). */
export interface RawReply {
  contentType: string;
  description: string;
  json?: z.ZodType;
}

export interface Operation {
  method: HttpMethod;
  /** Fastify's form: `/api/sessions/:id`. */
  path: string;
  summary: string;
  params?: z.ZodObject;
  querystring?: z.ZodObject;
  /** A JSON body. */
  body?: z.ZodType;
  /** A body of raw bytes (an upload), with the media types taken. */
  rawBody?: { contentTypes: string[]; description: string };
  /** Replies by status: a JSON schema, `null` for no content, or a non-JSON reply (with its JSON alternative). */
  responses: Record<number, z.ZodType | null | RawReply>;
}

/** The error replies an operation can give, each `{ error }`. */
export function errorReplies<const S extends number[]>(...statuses: S): { [K in S[number]]: typeof apiErrorSchema } {
  return Object.fromEntries(statuses.map((status) => [status, apiErrorSchema])) as { [K in S[number]]: typeof apiErrorSchema };
}

/** Declares an operation, keeping its exact schema types for the route and the client. */
export const operation = <const O extends Operation>(op: O): O => op;

/** The JSON reply of an operation for its success status (the lowest 2xx with a schema). */
export type ReplyOf<O extends Operation> = {
  [S in keyof O["responses"]]: S extends 200 | 201 | 202
    ? O["responses"][S] extends z.ZodType
      ? z.infer<O["responses"][S]>
      : O["responses"][S] extends { json: z.ZodType }
        ? z.infer<O["responses"][S]["json"]>
        : never
    : never;
}[keyof O["responses"]];

export type BodyOf<O extends Operation> = O["body"] extends z.ZodType ? z.input<O["body"]> : never;
export type QueryOf<O extends Operation> = O["querystring"] extends z.ZodObject ? z.input<O["querystring"]> : never;
export type ParamsOf<O extends Operation> = O["params"] extends z.ZodObject ? z.input<O["params"]> : never;

/** A session's id in a path. */
export const sessionParams = z.object({ id: z.string().max(200) });
