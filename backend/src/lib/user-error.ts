import type { ApiErrorCode } from "@mini-openclaw/protocol";

/**
 * An error caused by the request (a bad path, an unknown session...), carrying the protocol's code
 * for why it failed; the transport answers with that code's HTTP status (`httpStatusOf`). Its
 * message is written for the user and is safe to show: it never holds a stack or a secret.
 */
export class UserError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    /** More of the reply, beside `error` (e.g. the files a rewind found changed). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "UserError";
  }
}

export const isUserError = (err: unknown): err is UserError => err instanceof UserError;
