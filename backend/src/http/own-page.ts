import type { FastifyRequest } from "fastify";
import { UserError } from "../lib/user-error.js";

/**
 * A decision that only a person may make (an approval, a standing order) counts only from the
 * workbench's own page: the browser sends its Origin with every POST, and it must be this server's.
 * The general guard lets requests without an Origin through (scripts); here a request without one,
 * or from anywhere else, grants nothing.
 */
export function assertOwnPage(request: FastifyRequest, allowedOrigins: string[], refusal: string): void {
  const origin = request.headers.origin;
  const own = `http://${request.headers.host ?? ""}`;
  if (origin === undefined || (origin !== own && !allowedOrigins.includes(origin))) throw new UserError("refused", refusal);
}
