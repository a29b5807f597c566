import { randomBytes } from "node:crypto";
import { UserError } from "../lib/user-error.js";

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function isValidSessionId(id: unknown): id is string {
  return typeof id === "string" && SESSION_ID.test(id);
}

export function assertSessionId(id: unknown): string {
  if (!isValidSessionId(id)) {
    throw new UserError("invalid_request", "Invalid session_id: use 1-64 letters, digits, '_' or '-' (no '/', '.', or spaces).");
  }
  return id;
}

/** Sortable by creation time: `20261121-185032-a1b2c3`. */
export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}
