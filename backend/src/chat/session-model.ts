import { UserError } from "../lib/user-error.js";
import type { ChatDeps } from "./chat-deps.js";

/**
 * Switches the session to a model profile (null: back to the default) from its next turn on: a
 * `meta` entry, so its history and system prompt stay exactly as they are.
 */
export async function switchSessionModel(deps: Pick<ChatDeps, "sessions" | "models">, sessionId: string, profile: string | null): Promise<void> {
  if (profile !== null && !deps.models.has(profile)) {
    throw new UserError("invalid_request", `Unknown model profile: "${profile.slice(0, 100)}". The profiles are: ${deps.models.names().join(", ")}.`);
  }
  await deps.sessions.append(sessionId, { type: "meta", ts: new Date().toISOString(), model: profile });
}

/**
 * The profile a session's turns go to: the last one it was switched to, while that profile exists;
 * otherwise the default (`gone`: the profile it named was deleted, which the turn says once).
 */
export function sessionProfile(deps: Pick<ChatDeps, "models">, chosen: string | null | undefined): { name: string; gone: string | null } {
  const { models } = deps;
  if (chosen && models.has(chosen)) return { name: chosen, gone: null };
  return { name: models.defaultName(), gone: chosen ?? null };
}
