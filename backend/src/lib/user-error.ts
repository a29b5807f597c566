/**
 * An error caused by the request (a bad path, an unknown session...), carrying the HTTP status it
 * maps to. Its message is written for the user and is safe to show: it never holds a stack or a secret.
 */
export class UserError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** More of the reply, beside `error` (e.g. the files a rewind found changed). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "UserError";
  }
}

export const isUserError = (err: unknown): err is UserError => err instanceof UserError;
