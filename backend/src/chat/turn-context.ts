/**
 * What a turn starts from: the session so far on the branch it continues (a new session's snapshot of
 * skills, roles and MCP tools recorded first), its number and parent, and the profiles it goes to.
 */
import type { SessionEntry } from "@mini-openclaw/protocol";
import type { ResolvedProfile } from "../config/resolved-profile.js";
import { describeRoles } from "../delegation/delegate-tool.js";
import { scanRoles } from "../delegation/scan-roles.js";
import { UserError } from "../lib/user-error.js";
import { branchTo, entriesOnBranch, hasTurn, maxTurnId, turnTree } from "../sessions/session-branches.js";
import { chosenModel } from "../sessions/session-index.js";
import { noSuchTurn } from "../sessions/session-store.js";
import type { createTurnRecorder } from "../sessions/turn-recorder.js";
import { refreshSkillsSnapshot } from "../skills/skills-snapshot.js";
import type { ChatDeps } from "./chat-deps.js";
import type { PreparedTurn } from "./prepare-turn.js";
import { sessionProfile } from "./session-model.js";

export type Recorder = ReturnType<typeof createTurnRecorder>;
export type TurnContext = Awaited<ReturnType<typeof loadContext>>;

/** The roles, and the session so far: a new session records its skills snapshot and roles catalog first. */
export async function loadContext(deps: ChatDeps, turn: PreparedTurn, recorder: Recorder) {
  const { config, sessions, log } = deps;
  const { roles } = await scanRoles(config.dataRoot);
  if (turn.created) {
    await sessions.create(turn.sessionId);
    // A new session sees the skills as they are on disk now, and keeps that snapshot for its whole life,
    // so its system prompt stays byte-identical (provider prompt caches keep hitting).
    const { scan, snapshot: rendered } = await refreshSkillsSnapshot(config.dataRoot, config.locationPrefix, config.limits.skillsListChars);
    for (const problem of scan.problems) log.warn({ skill: problem.folder, reason: problem.reason }, "skill skipped");
    if (rendered.stats.omitted.length) log.warn({ omitted: rendered.stats.omitted.length, budget: rendered.stats.budget_chars }, "skills left out of the prompt's list");
    const snapshot = rendered.text;
    const rolesCatalog = describeRoles(roles);
    // Its MCP tools too: the servers connected now, with their tools as they list them now.
    const mcp = deps.mcp.catalog();
    recorder.snapshot(snapshot, rolesCatalog, mcp);
    return { roles, snapshot, rolesCatalog, mcp, previous: [] as SessionEntry[], parent: 0, turnId: 1, sessionModel: undefined as string | null | undefined };
  }
  // The branch the turn continues: the current one, or the one ending at the turn it was asked to follow
  // (the file is read once: it can be large, and this is every turn's start).
  const all = await sessions.entries(turn.sessionId);
  const tree = turnTree(all);
  const leaf = turn.parentTurn ?? tree.leaf;
  if (leaf !== 0 && !hasTurn(tree, leaf)) throw new UserError("invalid_request", noSuchTurn(turn.sessionId, leaf, tree));
  const previous = entriesOnBranch(all, tree, leaf);
  const started = previous.findLast((entry) => entry.type === "snapshot");
  // Ids go on above every id the session stored, whatever the clock says.
  for (const entry of all) if (entry.type === "event" && entry.id) deps.turns.ids.atLeast(entry.id);
  // The session's model profile: the last one it was switched to (every branch shares it).
  const sessionModel = chosenModel(all);
  return { roles, snapshot: started?.content, rolesCatalog: started?.roles, mcp: started?.mcp, previous, parent: branchTo(tree, leaf).at(-1) ?? 0, turnId: maxTurnId(tree) + 1, sessionModel };
}

/** The profiles a turn goes to (the first, then its fallbacks), and the session's profile that was deleted, if it was. */
export function turnProfile(deps: ChatDeps, turn: PreparedTurn, sessionModel: string | null | undefined): { chain: ResolvedProfile[]; gone: string | null } {
  const session = sessionProfile(deps, turn.sessionModel ?? sessionModel);
  const name = turn.model ?? session.name;
  return { chain: deps.models.chain(name), gone: turn.sessionModel === undefined ? session.gone : null };
}
