/**
 * Routes from the API contract (protocol's `api`): each route takes its method, path and schemas
 * from its operation, so what the server checks, what it replies and what the OpenAPI document
 * says are one thing. Requests are validated by the operation's zod schemas; replies are checked
 * against the schema of their status when asked (`API_CHECK_REPLIES`, on in the test suite and `dev`).
 */
import type { Operation, RawReply } from "@mini-openclaw/protocol";
import type { FastifyInstance, FastifySchemaCompiler } from "fastify";
import type { FastifySerializerCompiler } from "fastify/types/schema.js";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";

/** The replies' schemas by status, for the types: no content (204) is `void`. */
type JsonReplies<R> = {
  [S in keyof R as R[S] extends z.ZodType | null ? S : R[S] extends { json: z.ZodType } ? S : never]: R[S] extends z.ZodType
    ? R[S]
    : R[S] extends null
      ? z.ZodVoid
      : R[S] extends { json: infer J }
        ? J
        : never;
};

/** The Fastify schema of an operation: its zod schemas, and a JSON reply schema per status. */
type RouteSchema<O extends Operation> = {
  params: O["params"] extends z.ZodType ? O["params"] : undefined;
  querystring: O["querystring"] extends z.ZodType ? O["querystring"] : undefined;
  body: O["body"] extends z.ZodType ? O["body"] : undefined;
  response: JsonReplies<O["responses"]>;
};

const isRaw = (reply: unknown): reply is RawReply => typeof reply === "object" && reply !== null && "contentType" in reply;

/** Method, URL and schema of a route, from its operation (spread into `app.route`). */
export function routeOf<O extends Operation>(op: O): { method: O["method"]; url: string; schema: RouteSchema<O> } {
  const response: Record<number, z.ZodType> = {};
  for (const [status, reply] of Object.entries(op.responses)) {
    if (reply === null) continue;
    if (isRaw(reply)) {
      if (reply.json) response[Number(status)] = reply.json;
    } else response[Number(status)] = reply;
  }
  const schema: Record<string, unknown> = { response };
  if (op.params) schema.params = op.params;
  if (op.querystring) schema.querystring = op.querystring;
  if (op.body) schema.body = op.body;
  return { method: op.method, url: op.path, schema: schema as RouteSchema<O> };
}

/** A reply checked against its status's schema, then written as the handler gave it. */
const checkedSerializer: FastifySerializerCompiler<z.ZodType> =
  ({ schema, method, url }) =>
  (data) => {
    const checked = schema.safeParse(data);
    if (!checked.success) throw new Error(`The reply of ${method} ${url} does not match the API contract: ${z.prettifyError(checked.error)}`);
    return JSON.stringify(data);
  };

const plainSerializer: FastifySerializerCompiler<z.ZodType> = () => (data) => JSON.stringify(data);

/**
 * The app validates requests with the contract's zod schemas, and with `checkReplies` checks each
 * JSON reply against them too (a reply that breaks the contract is then a 500 and a log line); routes
 * are typed by them.
 */
export function useApiContract(app: FastifyInstance, { checkReplies }: { checkReplies: boolean }): FastifyInstance {
  app.setValidatorCompiler(validatorCompiler as FastifySchemaCompiler<z.ZodType>);
  app.setSerializerCompiler(checkReplies ? checkedSerializer : plainSerializer);
  return app;
}

/** The app as route plugins use it: request and reply types come from the operations' schemas. */
export const typed = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();
