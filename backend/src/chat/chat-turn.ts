import { HumanMessage } from "@langchain/core/messages";
import type { ChatEvent, CompactionEntry, McpCatalog, SessionEntry } from "@mini-openclaw/protocol";
import type { FastifyBaseLogger } from "fastify";
import { runAgentTurn, type TurnOutcome } from "../agent/run-agent-turn.js";
import type { ApprovalGate } from "../approvals/approval-gate.js";
import { createApprover } from "../approvals/approve-call.js";
import { type Config, isModelConfigured } from "../config/config.js";
import { compactTurns, planCompaction } from "../context/compact-session.js";
import { estimateRequestTokens } from "../context/context-budget.js";
import { UserError } from "../lib/user-error.js";
import { assemblePrompt, withGeneratedSection } from "../prompt/assemble-prompt.js";
import { toolDefinition } from "../agent/tool-definition.js";
import { leftOutNote } from "../mcp/mcp-catalog.js";
import { MCP_FILE } from "../settings/settings-files.js";
import type { McpHub } from "../mcp/mcp-hub.js";
import { loadMcpPromptCommand } from "../mcp/mcp-prompt-command.js";
import type { ChangeTracker } from "../checkpoints/change-tracker.js";
import { pendingReverted, withRevertedNote } from "../checkpoints/reverted-note.js";
import { mcpTools } from "../mcp/mcp-tools.js";
import type { CoreTool } from "../tools/core-tool.js";
import type { PromptLog } from "../prompt/prompt-log.js";
import { historyMessages } from "../sessions/session-history.js";
import { assertSessionId, newSessionId } from "../sessions/session-id.js";
import { noSuchTurn, type SessionStore } from "../sessions/session-store.js";
import { createTurnRecorder } from "../sessions/turn-recorder.js";
import { type LoadedSkill, loadSlashCommand, parseSlashCommand } from "../skills/slash-command.js";
import { refreshSkillsSnapshot } from "../skills/skills-snapshot.js";
import { SNAPSHOT_FILE } from "../workspace/workspace-files.js";
import type { ToolRuntime } from "../tools/core-tool.js";
import { coreTools } from "../tools/core-tools.js";
import { createDelegateTool, describeRoles } from "../delegation/delegate-tool.js";
import { type DelegationRegistry, delegationRuntime } from "../delegation/delegation-runtime.js";
import { scanRoles } from "../delegation/scan-roles.js";
import { pendingAdvice, withAdvice } from "../review/reviewer-advice.js";
import type { Reviewer } from "../review/reviewer.js";
import type { UiEventBus } from "../ui-events/ui-event-bus.js";
import { busyConflict, type StartableTurn, type Steering, type TurnRegistry } from "../turns/turn-registry.js";
import { branchTo, entriesOnBranch, hasTurn, maxTurnId, turnTree } from "../sessions/session-branches.js";

export interface ChatDeps {
  config: Config;
  sessions: SessionStore;
  prompts: PromptLog;
  /** The running turns, their readers and queues: one turn per session at a time. */
  turns: TurnRegistry;
  /** What the tools run with: the sandbox, the Python sessions, the guarded fetch agent, the knowledge base. */
  runtime: ToolRuntime;
  log: FastifyBaseLogger;
  ui: UiEventBus;
  delegations: DelegationRegistry;
  reviewer: Reviewer;
  /** Calls waiting for the user's approval, across sessions. */
  approvals: ApprovalGate;
  /** The MCP servers of MCP.json: a new session takes its MCP tools from here. */
  mcp: McpHub;
  /** Records what tool calls change on disk, for the changes view, revert and rewind. */
  changes: ChangeTracker;
}

export interface TurnRequest {
  message: string;
  session_id?: string | null;
  /** false: no tools this turn (a model that takes none). */
  tools?: boolean;
  /** A branch: the turn this one follows (0: the start) instead of the current branch's last. */
  parent_turn?: number;
}

export interface PreparedTurn extends StartableTurn {
  created: boolean;
}

export function modelNotConfiguredMessage(config: Config): string {
  return (
    `No model is configured. Set one up with the Model button at the top of the workbench, or put OPENAI_API_KEY=... ` +
    `(and for other providers OPENAI_BASE_URL=... and OPENAI_MODEL=...) in ${config.keyFilePath} and restart.`
  );
}

/** The message's own checks (also for a queued one): present, and within the chat size limit. */
export function checkMessage(config: Config, message: unknown): asserts message is string {
  if (typeof message !== "string" || message.trim() === "") {
    throw new UserError(400, "'message' must be a non-empty string.");
  }
  if (message.length > config.limits.messageChars) {
    throw new UserError(413, `'message' is ${message.length} characters, over the ${config.limits.messageChars} limit.`);
  }
}

/**
 * Checks everything that can be refused with a plain HTTP error before a turn starts:
 * the message, the session id, an unknown session, a turn already running there.
 */
export async function prepareTurn(deps: ChatDeps, request: TurnRequest): Promise<PreparedTurn> {
  const { config, sessions, turns } = deps;
  checkMessage(config, request.message);
  const requested = request.session_id ?? null;
  let sessionId: string;
  let created = false;
  if (requested === null || requested === "") {
    sessionId = newSessionId();
    created = true;
  } else {
    sessionId = assertSessionId(requested);
    if (!(await sessions.exists(sessionId))) {
      throw new UserError(404, `Unknown session: ${sessionId}. Omit session_id to start a new session.`);
    }
  }
  const parentTurn = request.parent_turn;
  if (parentTurn !== undefined && parentTurn !== 0) {
    if (created) throw new UserError(400, `A new session has no turn ${parentTurn} to follow.`);
    await sessions.read(sessionId, { leaf: parentTurn }); // a 400 for a turn it does not have
  }
  const command = parseSlashCommand(request.message);
  const mcpPrompt = command ? await loadMcpPromptCommand(deps.mcp, command.name, command.args) : null;
  const loaded: LoadedSkill | null =
    mcpPrompt !== null ? { skill: null, modelMessage: mcpPrompt } : command ? await loadSlashCommand(config.dataRoot, config.locationPrefix, command.name, command.args) : null;
  turns.claim(sessionId, busyConflict(sessionId));
  let released = false;
  const release = () => {
    if (!released) turns.release(sessionId);
    released = true;
  };
  const message = request.message;
  return {
    sessionId,
    created,
    release,
    async run(emit, signal, steering) {
      try {
        await executeTurn(deps, { sessionId, created, message, loaded, tools: request.tools !== false, parentTurn }, emit, signal, steering);
      } finally {
        release();
      }
    },
  };
}

type TurnPlan = { sessionId: string; created: boolean; message: string; loaded: LoadedSkill | null; tools: boolean; parentTurn: number | undefined };
/** Numbers (unless `id` is given) and delivers an event (the live turn); returns the id it went out with. */
type Emit = (event: ChatEvent, id?: number) => number;

/**
 * A turn, step by step: load its context, build the prompt, compact if it would not fit, run the
 * agent, persist the outcome. Every event is recorded in the session as it is sent to the client.
 */
async function executeTurn(deps: ChatDeps, turn: TurnPlan, emit: Emit, signal: AbortSignal, steering: Steering): Promise<void> {
  const { config, sessions, log } = deps;
  if (!isModelConfigured(config.model)) {
    emit({ type: "error", code: "model_not_configured", message: modelNotConfiguredMessage(config) });
    return;
  }
  const recorder = createTurnRecorder(sessions, turn.sessionId, (err) => log.error({ err, sessionId: turn.sessionId }, "session write failed"));
  const context = await loadContext(deps, turn, recorder);
  recorder.startTurn(context.turnId);
  // Stored with the id it went out with, so a stored line and a replayed frame agree.
  const record = (event: ChatEvent) => recorder.onEvent(event, emit(event));
  emit({ type: "session", session_id: turn.sessionId, created: turn.created, turn: context.turnId });
  recorder.user(turn.message, context.parent, turn.loaded?.modelMessage, turn.tools);
  if (turn.loaded?.skill) {
    const { name, location, allowedTools, allowedCommands } = turn.loaded.skill;
    record({ type: "skill", name, location, ...(allowedTools ? { allowed_tools: allowedTools } : {}), ...(allowedCommands ? { allowed_commands: allowedCommands } : {}) });
  }
  const mcp = turn.tools ? mcpTools(deps.mcp, context.mcp) : [];
  const prompt = await buildPrompt(deps, turn.sessionId, context, mcp, record);
  const request = new HumanMessage(withRevertedNote(pendingReverted(context.previous), withAdvice(pendingAdvice(context.previous), turn.loaded?.modelMessage ?? turn.message)));
  const history = await compactIfNeeded(deps, context.previous, prompt.text, request, recorder, record, signal);
  const agent = { sessionId: turn.sessionId, depth: 0, roles: [] };
  const approve = createApprover(
    { dataRoot: config.dataRoot, gate: deps.approvals, off: config.approvalsOff, sandbox: deps.runtime.sandbox.status.detail, log },
    turn.sessionId,
  );
  const delegation = { ...delegationRuntime(config, context.roles, deps.delegations, log), approve };
  const outcome = await runAgentTurn({
    model: config.model,
    systemPrompt: prompt.text,
    messages: [...history, request],
    activeSkill: turn.loaded?.skill ?? null,
    approve,
    tools: turn.tools ? [...coreTools(deps.runtime, agent), createDelegateTool({ delegation, runtime: deps.runtime, agent, catalog: context.rolesCatalog }), ...mcp] : [],
    locationPrefix: config.locationPrefix,
    maxSteps: config.limits.maxSteps,
    signal,
    log,
    emit: record,
    steering,
    track: (call, run) => deps.changes.record({ sessionId: turn.sessionId, turn: context.turnId, callId: call.id, tool: call.tool }, run),
  });
  await persist(deps, turn.sessionId, context.turnId, recorder, outcome, emit);
}

type Recorder = ReturnType<typeof createTurnRecorder>;

/** The roles, and the session so far: a new session records its skills snapshot and roles catalog first. */
async function loadContext(deps: ChatDeps, turn: TurnPlan, recorder: Recorder) {
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
    return { roles, snapshot, rolesCatalog, mcp, previous: [] as SessionEntry[], parent: 0, turnId: 1 };
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
  return { roles, snapshot: started?.content, rolesCatalog: started?.roles, mcp: started?.mcp, previous, parent: branchTo(tree, leaf).at(-1) ?? 0, turnId: maxTurnId(tree) + 1 };
}

/**
 * The system prompt from the workspace files and the session's snapshot (with a note of the MCP servers
 * it does not have); a `prefix` event says what changed since the last turn.
 */
async function buildPrompt(
  deps: ChatDeps,
  sessionId: string,
  context: { snapshot: string | undefined; mcp: McpCatalog | undefined },
  mcp: CoreTool[],
  record: (event: ChatEvent) => void,
) {
  const { config, prompts } = deps;
  const { snapshot } = context;
  let prompt = await assemblePrompt(config.dataRoot, config.locationPrefix, config.limits, snapshot !== undefined ? { [SNAPSHOT_FILE]: snapshot } : {});
  const note = leftOutNote(context.mcp);
  if (note) prompt = withGeneratedSection(prompt, "MCP servers", MCP_FILE, note);
  const changed = prompts.changedSections(sessionId, prompt);
  if (changed.length > 0) record({ type: "prefix", changed });
  const definitions = mcp.map((tool) => {
    const definition = toolDefinition(tool);
    return { name: tool.name, server: tool.mcp?.server ?? "", chars: JSON.stringify(definition).length, definition };
  });
  prompts.record(sessionId, prompt, definitions);
  return prompt;
}

/** The history the model is sent: whole, or with its older turns summarized when the request would outgrow the budget. */
async function compactIfNeeded(
  deps: ChatDeps,
  previous: SessionEntry[],
  systemPrompt: string,
  request: HumanMessage,
  recorder: Recorder,
  record: (event: ChatEvent) => void,
  signal: AbortSignal,
) {
  const history = historyMessages(previous);
  if (estimateRequestTokens(systemPrompt, [...history, request]) <= deps.config.limits.contextBudgetTokens) return history;
  const compaction = await compactForBudget(deps, previous, signal);
  if (!compaction) return history;
  recorder.compaction(compaction);
  record(compactionEvent(compaction));
  return historyMessages([...previous, compaction]);
}

/**
 * Writes the outcome and waits for every write of the turn: the answer reaches the client only once
 * the session holds it, and a turn that could not be saved says so.
 */
async function persist(deps: ChatDeps, sessionId: string, turnId: number, recorder: Recorder, outcome: TurnOutcome, emit: Emit) {
  // The outcome is numbered now and sent only once stored; its id is the one it is stored with.
  const id = deps.turns.ids.next();
  recorder.onEvent(outcome, id);
  recorder.end();
  await deps.sessions.flush(sessionId);
  const failed = recorder.writeError as NodeJS.ErrnoException | null;
  if (failed) {
    const reason = failed.code === "ENOSPC" ? "the disk is full" : failed.code ?? failed.message;
    emit({ type: "error", code: "storage", message: `This turn could not be saved to the session file (${reason}); what is shown here is not stored.` });
    return;
  }
  emit(outcome, id);
  // After the answer is out, never before: the review must not hold the turn up.
  if (outcome.type === "final") deps.reviewer.afterTurn(sessionId, turnId);
}

export function compactionEvent(entry: CompactionEntry): ChatEvent {
  return { type: "compaction", turns: entry.covers_turns, summary: entry.content, skills: entry.skills.map((s) => s.name), forced: entry.forced };
}

/**
 * The request would outgrow the context budget: summarize all but the last few turns. A failed
 * summary does not fail the turn (it runs with the full history); the user is told why.
 */
async function compactForBudget(deps: ChatDeps, previous: SessionEntry[], signal: AbortSignal): Promise<CompactionEntry | null> {
  const { config, log, ui } = deps;
  const plan = planCompaction(previous, config.limits.compactKeepTurns);
  if (!plan) return null;
  try {
    return await compactTurns(config.model, plan, { forced: false, budgetTokens: config.limits.contextBudgetTokens, signal });
  } catch (err) {
    log.warn({ err }, "compaction failed");
    ui.toast(`The session is over its context budget but could not be compacted: ${(err as Error).message}`, "warning");
    return null;
  }
}
