import { HumanMessage } from "@langchain/core/messages";
import type { ChatEvent } from "@mini-openclaw/protocol";
import { withHookNotes } from "../agent/hook-ports.js";
import { runAgentTurn, type TurnOutcome } from "../agent/run-agent-turn.js";
import { messageContent } from "../attachments/attachment-content.js";
import { pendingReverted, withRevertedNote } from "../checkpoints/reverted-note.js";
import { isModelConfigured } from "../config/config.js";
import type { ResolvedProfile } from "../config/resolved-profile.js";
import { pendingAdvice, withAdvice } from "../review/reviewer-advice.js";
import { createTurnRecorder } from "../sessions/turn-recorder.js";
import type { LiveTurn } from "../turns/live-turn.js";
import type { Steering } from "../turns/turn-registry.js";
import { type ChatDeps, modelNotConfiguredMessage } from "./chat-deps.js";
import { prepareFirstStep } from "./first-step.js";
import type { PreparedTurn } from "./prepare-turn.js";
import { switchSessionModel } from "./session-model.js";
import { loadContext, type Recorder, turnProfile } from "./turn-context.js";
import { turnToolbox } from "./turn-toolbox.js";
import { turnHooks } from "./turn-hooks.js";

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
  recorder.user(turn.message, context.parent, turn.loaded?.modelMessage, turn.tools, turn.attachments, turn.by);
  live.subscribe(recorder);
  // The session's start and the message go to the user's hooks: what they add is part of what the
  // model is sent (their runs are stored, and the history adds it again from them).
  await deps.hooks.refreshSkills();
  const hooks = turnHooks(deps.hooks, { sessionId: turn.sessionId, turnId: context.turnId, emit });
  const started = turn.created ? await hooks.sessionStart() : [];
  const prompt = await hooks.promptSubmit(turn.message);
  const hookContext = [...started, ...prompt.context];
  live.subscribe({ event: ({ event }) => event.type === "approval_request" && void hooks.notify("permission_prompt", `A ${event.tool} call waits for your approval`) });
  if (prompt.blocked !== null) {
    return finish(deps, turn.sessionId, context.turnId, recorder, { type: "error", code: "hook_stopped", message: `A UserPromptSubmit hook blocked this message, so it was not sent to the model: ${prompt.blocked}` }, emit);
  }
  // A file a scheduled run reads as its instructions, changed by a tool, is shown to the user as such.
  live.subscribe({ event: ({ event }) => event.type === "changes" && deps.tasks.noticeChanges(event.files.map((file) => file.path)) });
  if (gone) emit({ type: "model_switch", why: "profile_deleted", from: gone, to: chain[0].name, reason: `The profile "${gone}" this session used was deleted; the session is on the default profile now.` });
  if (turn.loaded?.skill) {
    const { name, location, allowedTools, allowedCommands } = turn.loaded.skill;
    emit({ type: "skill", name, location, ...(allowedTools ? { allowed_tools: allowedTools } : {}), ...(allowedCommands ? { allowed_commands: allowedCommands } : {}) });
  }
  const requestText = withRevertedNote(pendingReverted(context.previous), withAdvice(pendingAdvice(context.previous), withHookNotes(turn.loaded?.modelMessage ?? turn.message, { context: hookContext })));
  const attached = await Promise.all(turn.attachments.map((a) => deps.attachments.modelInput(a)));
  const request = new HumanMessage({ content: messageContent(requestText, attached) });
  const { tools, mcp, approve } = turnToolbox(deps, turn, context, chain, hooks);
  const outcome = await runAgentTurn({
    profiles: chain,
    messages: [request],
    prepareStep: prepareFirstStep(deps, turn.sessionId, { ...context, profile: chain[0], ...(turn.replay?.prompt ? { fixedPrompt: turn.replay.prompt } : {}) }, mcp, recorder, emit, live.controller.signal, () => hooks.preCompact("auto")),
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
    hooks,
    track: (call, run) => deps.changes.record({ sessionId: turn.sessionId, turn: context.turnId, callId: call.id, tool: call.tool }, run),
  });
  return finish(deps, turn.sessionId, context.turnId, recorder, outcome, emit);
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

