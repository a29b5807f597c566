import { HumanMessage } from "@langchain/core/messages";
import { type ChatEvent, type CompactionEntry, compactionEventOf, type McpCatalog, type SessionEntry } from "@mini-openclaw/protocol";
import { type PrepareStep, runAgentTurn, type TurnOutcome } from "../agent/run-agent-turn.js";
import { toolDefinition } from "../agent/tool-definition.js";
import { createApprover } from "../approvals/approve-call.js";
import { pendingReverted, withRevertedNote } from "../checkpoints/reverted-note.js";
import { isModelConfigured } from "../config/config.js";
import { compactTurns, planCompaction } from "../context/compact-session.js";
import { requestTokens } from "../context/context-budget.js";
import { createDelegateTool, describeRoles } from "../delegation/delegate-tool.js";
import { delegationRuntime } from "../delegation/delegation-runtime.js";
import { scanRoles } from "../delegation/scan-roles.js";
import { UserError } from "../lib/user-error.js";
import { leftOutNote } from "../mcp/mcp-catalog.js";
import { mcpTools } from "../mcp/mcp-tools.js";
import { assemblePrompt, withGeneratedSection } from "../prompt/assemble-prompt.js";
import { pendingAdvice, withAdvice } from "../review/reviewer-advice.js";
import { branchTo, entriesOnBranch, hasTurn, maxTurnId, turnTree } from "../sessions/session-branches.js";
import { type AttachedContent, historyMessages } from "../context/session-history.js";
import { attachedContent } from "../context/attached-content.js";
import { messageContent } from "../attachments/attachment-content.js";
import { chosenModel } from "../sessions/session-index.js";
import { noSuchTurn } from "../sessions/session-store.js";
import { createTurnRecorder } from "../sessions/turn-recorder.js";
import { MCP_FILE } from "../settings/settings-files.js";
import { refreshSkillsSnapshot } from "../skills/skills-snapshot.js";
import type { CoreTool } from "../tools/core-tool.js";
import { coreTools } from "../tools/core-tools.js";
import { scheduleTool } from "../tools/schedule.js";
import type { LiveTurn } from "../turns/live-turn.js";
import type { Steering } from "../turns/turn-registry.js";
import { SNAPSHOT_FILE } from "../config/data-root-layout.js";
import { type ChatDeps, modelNotConfiguredMessage } from "./chat-deps.js";
import { sessionProfile, switchSessionModel } from "./session-model.js";
import type { ResolvedProfile } from "../config/resolved-profile.js";
import type { PreparedTurn } from "./prepare-turn.js";

type Recorder = ReturnType<typeof createTurnRecorder>;
type TurnContext = Awaited<ReturnType<typeof loadContext>>;

/**
 * A turn, step by step, into its live event stream: load its context, run the agent (the prompt and
 * the history's compaction are its first step's preparation), and end with its outcome once the
 * session holds everything before it. The session recorder follows the stream as a subscriber.
 */
export async function runTurn(deps: ChatDeps, turn: PreparedTurn, live: LiveTurn, steering: Steering): Promise<TurnOutcome> {
  const { config, sessions, log } = deps;
  const emit = (event: ChatEvent) => void live.emit(event);
  /** A turn its profile cannot take, refused before anything is stored or sent. */
  const refusal = (profile: ResolvedProfile): TurnOutcome | null => {
    let outcome: TurnOutcome | null = null;
    if (!isModelConfigured(profile.model)) outcome = { type: "error", code: "model_not_configured", message: modelNotConfiguredMessage(config, profile.name) };
    else if (turn.attachments.some((a) => a.kind === "image") && profile.capabilities.vision !== true) {
      const images = turn.attachments.filter((a) => a.kind === "image").map((a) => a.name);
      outcome = {
        type: "error",
        code: "vision_unsupported",
        message: `The profile "${profile.name}" (${profile.model.model}) is not marked as taking images, so nothing was sent. Send the text without ${images.join(", ")}, or pick a profile that takes images (Test connection finds out and marks it).`,
      };
    }
    if (outcome) emit(outcome);
    return outcome;
  };
  // A new session's profile is known before anything is written; an existing one's is in its file.
  const early = turn.created ? turnProfile(deps, turn, undefined) : null;
  const refusedEarly = early ? refusal(early.chain[0]) : null;
  if (refusedEarly) return refusedEarly;
  const recorder = createTurnRecorder(sessions, turn.sessionId, (err) => log.error({ err, sessionId: turn.sessionId }, "session write failed"));
  const context = await loadContext(deps, turn, recorder);
  const { chain, gone } = early ?? turnProfile(deps, turn, context.sessionModel);
  const refused = early ? null : refusal(chain[0]);
  if (refused) return refused;
  if (turn.sessionModel !== undefined) await switchSessionModel(deps, turn.sessionId, turn.sessionModel);
  else if (gone) await switchSessionModel(deps, turn.sessionId, null);
  recorder.startTurn(context.turnId);
  emit({ type: "session", session_id: turn.sessionId, created: turn.created, turn: context.turnId });
  recorder.user(turn.message, context.parent, turn.loaded?.modelMessage, turn.tools, turn.attachments);
  live.subscribe(recorder);
  // A file a scheduled run reads as its instructions, changed by a tool, is shown to the user as such.
  live.subscribe({ event: ({ event }) => event.type === "changes" && deps.tasks.noticeChanges(event.files.map((file) => file.path)) });
  if (gone) emit({ type: "model_switch", why: "profile_deleted", from: gone, to: chain[0].name, reason: `The profile "${gone}" this session used was deleted; the session is on the default profile now.` });
  if (turn.loaded?.skill) {
    const { name, location, allowedTools, allowedCommands } = turn.loaded.skill;
    emit({ type: "skill", name, location, ...(allowedTools ? { allowed_tools: allowedTools } : {}), ...(allowedCommands ? { allowed_commands: allowedCommands } : {}) });
  }
  const mcp = turn.tools ? mcpTools(deps.mcp, context.mcp) : [];
  const requestText = withRevertedNote(pendingReverted(context.previous), withAdvice(pendingAdvice(context.previous), turn.loaded?.modelMessage ?? turn.message));
  const attached = await Promise.all(turn.attachments.map((a) => deps.attachments.modelInput(a)));
  const request = new HumanMessage({ content: messageContent(requestText, attached) });
  const agent = { sessionId: turn.sessionId, depth: 0, roles: [] };
  const approve = createApprover(
    { dataRoot: config.dataRoot, gate: deps.approvals, off: config.approvalsOff, sandbox: deps.runtime.sandbox.status.detail, log, ...(turn.unattended ? { unattended: turn.unattended } : {}) },
    turn.sessionId,
  );
  const delegation = { ...delegationRuntime(config, context.roles, deps.delegations, log, { turn: chain, profiles: (name) => deps.models.chain(name) }), approve };
  const all: CoreTool[] = turn.tools
    ? [...coreTools(deps.runtime, agent), createDelegateTool({ delegation, runtime: deps.runtime, agent, catalog: context.rolesCatalog }), scheduleTool({ tasks: deps.tasks, sessionId: turn.sessionId }), ...mcp]
    : [];
  // A scheduled task may offer only some tools.
  const tools = turn.allowedTools ? all.filter((tool) => turn.allowedTools!.includes(tool.name)) : all;
  const outcome = await runAgentTurn({
    profiles: chain,
    messages: [request],
    prepareStep: prepareFirstStep(deps, turn.sessionId, { ...context, profile: chain[0] }, mcp, recorder, emit, live.controller.signal),
    activeSkill: turn.loaded?.skill ?? null,
    approve,
    tools,
    locationPrefix: config.locationPrefix,
    maxSteps: config.limits.maxSteps,
    signal: live.controller.signal,
    log,
    emit,
    steering,
    cleanOutput: (text) => deps.runtime.secrets.scrub(text),
    track: (call, run) => deps.changes.record({ sessionId: turn.sessionId, turn: context.turnId, callId: call.id, tool: call.tool }, run),
  });
  return finish(deps, turn.sessionId, context.turnId, recorder, outcome, emit);
}

/** The roles, and the session so far: a new session records its skills snapshot and roles catalog first. */
async function loadContext(deps: ChatDeps, turn: PreparedTurn, recorder: Recorder) {
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
  if (leaf !== 0 && !hasTurn(tree, leaf)) throw new UserError(400, noSuchTurn(turn.sessionId, leaf, tree));
  const previous = entriesOnBranch(all, tree, leaf);
  const started = previous.findLast((entry) => entry.type === "snapshot");
  // Ids go on above every id the session stored, whatever the clock says.
  for (const entry of all) if (entry.type === "event" && entry.id) deps.turns.ids.atLeast(entry.id);
  // The session's model profile: the last one it was switched to (every branch shares it).
  const sessionModel = chosenModel(all);
  return { roles, snapshot: started?.content, rolesCatalog: started?.roles, mcp: started?.mcp, previous, parent: branchTo(tree, leaf).at(-1) ?? 0, turnId: maxTurnId(tree) + 1, sessionModel };
}

/**
 * The first step's preparation (the loop's `prepareStep`): the system prompt from the workspace files
 * and the session's snapshot, and the history, with its older turns summarized when the request would
 * outgrow the context budget. Later steps go on as they are.
 */
function prepareFirstStep(
  deps: ChatDeps,
  sessionId: string,
  context: TurnContext & { profile: ResolvedProfile },
  mcp: CoreTool[],
  recorder: Recorder,
  emit: (event: ChatEvent) => void,
  signal: AbortSignal,
): PrepareStep {
  return async ({ step, messages }) => {
    if (step !== 1) return {};
    const system = await buildPrompt(deps, sessionId, context, mcp, emit);
    const history = await compactIfNeeded(deps, context.profile, context.previous, system, messages, recorder, emit, signal, await attachedContent(deps.attachments, context.previous));
    return { system, messages: [...history, ...messages] };
  };
}

/**
 * The system prompt from the workspace files and the session's snapshot (with a note of the MCP servers
 * it does not have); a `prefix` event says what changed since the last turn.
 */
async function buildPrompt(deps: ChatDeps, sessionId: string, context: { snapshot: string | undefined; mcp: McpCatalog | undefined }, mcp: CoreTool[], emit: (event: ChatEvent) => void) {
  const { config, prompts } = deps;
  const { snapshot } = context;
  let prompt = await assemblePrompt(config.dataRoot, config.locationPrefix, config.limits, snapshot !== undefined ? { [SNAPSHOT_FILE]: snapshot } : {});
  const note = leftOutNote(context.mcp);
  if (note) prompt = withGeneratedSection(prompt, "MCP servers", MCP_FILE, note);
  const changed = prompts.changedSections(sessionId, prompt);
  if (changed.length > 0) emit({ type: "prefix", changed });
  const definitions = mcp.map((tool) => {
    const definition = toolDefinition(tool);
    return { name: tool.name, server: tool.mcp?.server ?? "", chars: JSON.stringify(definition).length, definition };
  });
  prompts.record(sessionId, prompt, definitions);
  return prompt.text;
}

/** The history the model is sent: whole, or with its older turns summarized when the request would outgrow the budget. */
async function compactIfNeeded(
  deps: ChatDeps,
  profile: ResolvedProfile,
  previous: SessionEntry[],
  system: string,
  request: Parameters<PrepareStep>[0]["messages"],
  recorder: Recorder,
  emit: (event: ChatEvent) => void,
  signal: AbortSignal,
  attachments: AttachedContent,
) {
  const history = historyMessages(previous, attachments);
  const budget = contextBudget(deps.config, profile);
  if (requestTokens(system, history, request, previous) <= budget) return history;
  const compaction = await compactForBudget(deps, profile, budget, previous, signal);
  if (!compaction) return history;
  recorder.compaction(compaction);
  emit(compactionEventOf(compaction));
  return historyMessages([...previous, compaction], attachments);
}

/**
 * The turn's last event, once the session holds everything before it: its outcome, or, when the
 * session could not be written, an error that says so (what was shown is not stored).
 */
async function finish(deps: ChatDeps, sessionId: string, turnId: number, recorder: Recorder, outcome: TurnOutcome, emit: (event: ChatEvent) => void): Promise<TurnOutcome> {
  const failed = (await recorder.settle()) as NodeJS.ErrnoException | null;
  if (failed) {
    const reason = failed.code === "ENOSPC" ? "the disk is full" : (failed.code ?? failed.message);
    const storage: TurnOutcome = { type: "error", code: "storage", message: `This turn could not be saved to the session file (${reason}); what is shown here is not stored.` };
    emit(storage);
    return storage;
  }
  emit(outcome);
  await recorder.settle();
  // After the answer is out, never before: the review must not hold the turn up.
  if (outcome.type === "final") deps.reviewer.afterTurn(sessionId, turnId);
  return outcome;
}

/**
 * The request would outgrow the context budget: summarize all but the last few turns. A failed
 * summary does not fail the turn (it runs with the full history); the user is told why.
 */
async function compactForBudget(deps: ChatDeps, profile: ResolvedProfile, budget: number, previous: SessionEntry[], signal: AbortSignal): Promise<CompactionEntry | null> {
  const { config, log, ui } = deps;
  const plan = planCompaction(previous, config.limits.compactKeepTurns);
  if (!plan) return null;
  try {
    return await compactTurns(compactionProfile(deps, profile.name), plan, { forced: false, budgetTokens: budget, signal });
  } catch (err) {
    log.warn({ err }, "compaction failed");
    ui.toast({ kind: "compaction_failed", detail: (err as Error).message }, "warning");
    return null;
  }
}

/** The turn's context budget: the configured one, or three quarters of the profile's context window when that is smaller. */
function contextBudget(config: ChatDeps["config"], profile: ResolvedProfile): number {
  const window = profile.params.contextWindow;
  return window ? Math.min(config.limits.contextBudgetTokens, Math.floor(window * 0.75)) : config.limits.contextBudgetTokens;
}

/** Compaction's profile: its own setting (MODELS.json `helpers.compaction`), else the session's. */
export function compactionProfile(deps: Pick<ChatDeps, "models">, sessionProfile: string): ResolvedProfile {
  const name = deps.models.helper("compaction") ?? sessionProfile;
  return deps.models.resolve(name) ?? deps.models.resolve(deps.models.defaultName())!;
}

/** The profiles a turn goes to (the first, then its fallbacks), and the session's profile that was deleted, if it was. */
function turnProfile(deps: ChatDeps, turn: PreparedTurn, sessionModel: string | null | undefined): { chain: ResolvedProfile[]; gone: string | null } {
  const session = sessionProfile(deps, turn.sessionModel ?? sessionModel);
  const name = turn.model ?? session.name;
  return { chain: deps.models.chain(name), gone: turn.sessionModel === undefined ? session.gone : null };
}
