/**
 * The API's client, typed by the contract's operations (protocol's `api`): the path, the parameters
 * and the reply's type come from the operation, so the client cannot call a route that does not exist
 * or read a field it does not send. Every failure becomes an ApiError with the server's words.
 */
import { type ApiErrorCode, apiErrorCodeFor, apiErrorCodeSchema, type BodyOf, type Operation, type ParamsOf, type QueryOf, type ReplyOf } from "@mini-openclaw/protocol";
import { apiErrorText } from "@/i18n/server-messages";
import { i18n } from "@/i18n/language";

/** A failed call: its status, its stable code, and a message in the user's language with the server's words as the detail. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode | "unreachable",
    message: string,
    /** The reply's JSON, beside its `error` (e.g. a rewind's `conflicts`). */
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

/** The error a failed reply stands for: its code (from the reply, else from the status) and the server's words. */
export function errorFromReply(status: number, statusText: string, body: unknown): ApiError {
  const reply = body as { error?: string; code?: string } | null;
  const parsed = apiErrorCodeSchema.safeParse(reply?.code);
  const code = parsed.success ? parsed.data : apiErrorCodeFor(status);
  return new ApiError(status, code, apiErrorText(code, reply?.error ?? `${status} ${statusText}`), body);
}

/** The server did not answer at all. */
export const unreachableError = () => new ApiError(0, "unreachable", i18n.t("errors.unreachable"));

export interface CallArgs<O extends Operation> {
  params?: ParamsOf<O>;
  query?: QueryOf<O>;
  body?: BodyOf<O>;
  /** Raw bytes (an upload), with their media type. */
  raw?: { data: Blob; contentType: string };
  signal?: AbortSignal;
}

/** The operation's URL with its path parameters filled in and its query appended (undefined values left out). */
export function urlOf<O extends Operation>(op: O, params?: ParamsOf<O>, query?: QueryOf<O>): string {
  const values = (params ?? {}) as Record<string, string>;
  const path = op.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => encodeURIComponent(values[name]));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) if (value !== undefined && value !== null) search.set(name, String(value));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Calls an operation and reads its JSON reply (null for no content). */
export async function callApi<O extends Operation>(op: O, args: CallArgs<O> = {}): Promise<ReplyOf<O>> {
  const init: RequestInit = { method: op.method, signal: args.signal };
  if (args.raw) init.headers = { "content-type": args.raw.contentType };
  if (args.raw) init.body = args.raw.data;
  else if (args.body !== undefined) {
    init.headers = { "content-type": "application/json" };
    init.body = JSON.stringify(args.body);
  } else if (op.method !== "GET" && op.method !== "DELETE" && op.body) {
    // An operation whose body is optional: an empty object rather than none (JSON content, not text).
    init.headers = { "content-type": "application/json" };
    init.body = "{}";
  }
  let response: Response;
  try {
    response = await fetch(urlOf(op, args.params, args.query), init);
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    throw unreachableError();
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  if (!response.ok) {
    throw errorFromReply(response.status, response.statusText, body);
  }
  return body as ReplyOf<O>;
}
