import type { CompactReply } from "@mini-openclaw/protocol";
import { isModelConfigured } from "../config/config.js";
import { compactTurns, planCompaction } from "../context/compact-session.js";
import { UserError } from "../lib/user-error.js";
import { assertSessionId } from "../sessions/session-id.js";
import { type ChatDeps, modelNotConfiguredMessage } from "./chat-deps.js";
import { compactionProfile } from "./first-step.js";
import { sessionProfile } from "./session-model.js";
import { chosenModel } from "../sessions/session-index.js";

/**
 * Compacts a session now, at the user's request (`POST /api/sessions/:id/compact`), keeping its last
 * `keepTurns` turns verbatim. Holds the session like a turn does, so the two never overlap.
 */
export async function compactSessionNow(deps: ChatDeps, id: string, keepTurns: number, signal: AbortSignal): Promise<CompactReply> {
  const { config, sessions, turns, ui } = deps;
  const sessionId = assertSessionId(id);
  await sessions.require(sessionId);
  const profile = compactionProfile(deps, sessionProfile(deps, chosenModel(await sessions.entries(sessionId))).name);
  if (!isModelConfigured(profile.model)) throw new UserError("unavailable", modelNotConfiguredMessage(config, profile.name), { code: "model_not_configured" });
  turns.claim(sessionId, `A turn is running in session ${sessionId}; compact it when the turn ends.`);
  try {
    const plan = planCompaction((await sessions.read(sessionId)).entries, keepTurns);
    if (!plan) return { compacted: false, reason: "Nothing to compact: no turns beyond those kept and those already summarized." };
    // The user's PreCompact hooks (outside a turn: their runs are in the Hooks view).
    await deps.hooks.run({ event: "PreCompact", names: ["manual"], fields: { trigger: "manual", custom_instructions: "" }, sessionId });
    const entry = await compactTurns(profile, plan, { forced: true, budgetTokens: config.limits.contextBudgetTokens, signal });
    await sessions.append(sessionId, entry);
    ui.toast({ kind: "compacted", turns: plan.coversTurns, skills: entry.skills?.map((s) => s.name) ?? [] });
    return { compacted: true, entry };
  } finally {
    turns.release(sessionId);
  }
}
