/**
 * A turn's first step, prepared: the system prompt from the workspace files and the session's
 * snapshot, and the history, its older turns summarized when the request would outgrow the budget.
 */
import { type ChatEvent, type CompactionEntry, compactionEventOf, type McpCatalog, type SessionEntry } from "@mini-openclaw/protocol";
import type { PrepareStep } from "../agent/run-agent-turn.js";
import { toolDefinition } from "../agent/tool-definition.js";
import { SNAPSHOT_FILE } from "../config/data-root-layout.js";
import type { ResolvedProfile } from "../config/resolved-profile.js";
import { attachedContent } from "../context/attached-content.js";
import { compactTurns, planCompaction } from "../context/compact-session.js";
import { requestTokens } from "../context/context-budget.js";
import { type AttachedContent, historyMessages } from "../context/session-history.js";
import { leftOutNote } from "../mcp/mcp-catalog.js";
import { assemblePrompt, withGeneratedSection } from "../prompt/assemble-prompt.js";
import { MCP_FILE } from "../settings/settings-files.js";
import type { CoreTool } from "../tools/core-tool.js";
import type { ChatDeps } from "./chat-deps.js";
import type { KeptPrompt } from "../prompt/prompt-history.js";
import type { Recorder, TurnContext } from "./turn-context.js";

/**
 * The first step's preparation (the loop's `prepareStep`): the system prompt from the workspace files
 * and the session's snapshot, and the history, with its older turns summarized when the request would
 * outgrow the context budget. Later steps go on as they are.
 */
export function prepareFirstStep(
  deps: ChatDeps,
  sessionId: string,
  /** `fixedPrompt`: the system prompt to send as it is (a replay of a turn with the prompt it was sent). */
  context: TurnContext & { profile: ResolvedProfile; fixedPrompt?: KeptPrompt },
  mcp: CoreTool[],
  recorder: Recorder,
  emit: (event: ChatEvent) => void,
  signal: AbortSignal,
  /** Before the history is summarized to fit (the user's PreCompact hooks). */
  beforeCompact: () => Promise<void> = async () => {},
): PrepareStep {
  return async ({ step, messages }) => {
    if (step !== 1) return {};
    const system = context.fixedPrompt ? await keptAgain(deps, sessionId, context.turnId, context.fixedPrompt) : await buildPrompt(deps, sessionId, context, mcp, emit);
    const history = await compactIfNeeded(deps, context.profile, context.previous, system, messages, recorder, emit, signal, await attachedContent(deps.attachments, context.previous), beforeCompact);
    return { system, messages: [...history, ...messages] };
  };
}

/**
 * The system prompt from the workspace files and the session's snapshot (with a note of the MCP servers
 * it does not have); a `prefix` event says what changed since the last turn.
 */
async function buildPrompt(deps: ChatDeps, sessionId: string, context: { snapshot: string | undefined; mcp: McpCatalog | undefined; turnId: number }, mcp: CoreTool[], emit: (event: ChatEvent) => void) {
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
  // Kept with the session: a replay can send it again, a diff can say what changed between turns.
  await deps.promptHistory.keep(sessionId, context.turnId, prompt).catch((err: Error) => deps.log.warn({ err: err.message, sessionId }, "the turn's prompt was not kept"));
  return prompt.text;
}

/** A prompt sent as it was kept (a replay's): kept for this turn too, so its diffs read the same way. */
async function keptAgain(deps: ChatDeps, sessionId: string, turnId: number, prompt: KeptPrompt): Promise<string> {
  await deps.promptHistory.keep(sessionId, turnId, prompt).catch((err: Error) => deps.log.warn({ err: err.message, sessionId }, "the turn's prompt was not kept"));
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
  beforeCompact: () => Promise<void>,
) {
  const history = historyMessages(previous, attachments);
  const budget = contextBudget(deps.config, profile);
  if (requestTokens(system, history, request, previous) <= budget) return history;
  await beforeCompact();
  const compaction = await compactForBudget(deps, profile, budget, previous, signal);
  if (!compaction) return history;
  recorder.compaction(compaction);
  emit(compactionEventOf(compaction));
  return historyMessages([...previous, compaction], attachments);
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
