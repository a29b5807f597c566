import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { ChatOpenAI } from "@langchain/openai";
import { randomUUID } from "node:crypto";
import { type ChatEvent, type ErrorEvent, type FinalEvent, profileKeySetting } from "@mini-openclaw/protocol";
import { requestCost, type ResolvedProfile } from "../config/resolved-profile.js";
import type { ActiveSkill } from "../skills/active-skill.js";
import type { CoreTool, ToolResult } from "../tools/core-tool.js";
import { createChatModel } from "./chat-model.js";
import { newTurnDialect } from "./provider-stream.js";
import { IdleWatchdog } from "./idle-watchdog.js";
import { classifyModelError, failoverReason, TIMEOUT_REASON } from "./model-errors.js";
import type { Approver } from "../approvals/approve-call.js";
import { runToolCalls, type ToolStep } from "./run-tool-calls.js";
import { MAX_STOP_CONTINUES, stopHookMessage, type TurnHooks } from "./hook-ports.js";
import { BlockWriter } from "./block-writer.js";
import { type ModelStep, streamModelStep } from "./stream-model-step.js";
import { toolDefinition } from "./tool-definition.js";

/** What a step's preparation sees: the step (1-based) and the conversation it is about to send (no system prompt). */
export interface StepContext {
  step: number;
  messages: BaseMessage[];
}

/**
 * Run before each model request, as pi's `transformContext` and the AI SDK's `prepareStep`: what to
 * send instead (a system prompt, the conversation), or nothing to go on as it is. Prompt building and
 * the history's compaction are given to the loop this way.
 */
export type PrepareStep = (context: StepContext) => Promise<{ system?: string; messages?: BaseMessage[] }>;

export interface AgentTurnInput {
  /**
   * The model profile to call, then its fallbacks in order: a step whose request fails before
   * anything streamed (down, 429, 5xx, silent past the timeout) goes on with the next, and says so.
   */
  profiles: ResolvedProfile[];
  /** The system prompt, unless `prepareStep` gives one. */
  systemPrompt?: string;
  /** The conversation the turn starts from (a sub-agent's task; a chat turn's new message, its history added by `prepareStep`). */
  messages: BaseMessage[];
  prepareStep?: PrepareStep;
  /** The tools this agent may call, made for it. */
  tools: CoreTool[];
  /** How skill locations are written (for the active skill's `allowed-tools` check). */
  locationPrefix: string;
  /** Model steps that may call tools; one more request may answer, never call. */
  maxSteps: number;
  signal: AbortSignal;
  /** Every event of the turn as it happens, except the last (`final` or `error`): that is returned. */
  emit: (event: ChatEvent) => void;
  log: { error(obj: object, msg: string): void };
  /** A skill loaded before the turn (a slash command): active from the first tool call. */
  activeSkill?: ActiveSkill | null;
  /** The approval step for governed tools (APPROVALS.json); absent: every call runs. */
  approve?: Approver;
  /** Records what the main agent's writing calls changed on disk (run-tool-calls.ts). */
  track?: ToolStep["track"];
  /** The user's messages sent into the running turn (queue "steer"), taken at each step boundary. */
  steering?: { pending(): boolean; take(): Array<{ id: string; message: string }> };
  /** What a tool's output passes through before the model reads it (the secret scrubber). */
  cleanOutput?: ToolStep["cleanOutput"];
  /** The user's hooks: around each tool call, and when the agent would stop. */
  hooks?: TurnHooks;
}

/** What a call of a step that a steer overtook returns: it never ran, and the model is told why. */
export const SKIPPED_FOR_STEER =
  "Skipped: the user sent a message before this call started, so it was not run. Read the user's message that follows, then decide what to call.";

/** How a turn ended: its answer, or why it failed. */
export type TurnOutcome = FinalEvent | ErrorEvent;

/** The step's calls, each with an id (a server that sent none gets one here, so each result pairs with its call). */
function callsOf(step: ModelStep): ModelStep["toolCalls"] {
  return step.toolCalls.map((c) => ({ ...c, id: c.id || `call_${randomUUID()}` }));
}

/**
 * The step as the model's message in the conversation. A tool-calling step keeps its reasoning beside
 * it (`reasoning_content`, as the conversation from the session file does: context/session-history.ts),
 * for the servers that want it back (`reasoningOfToolSteps`).
 */
function stepMessage(step: ModelStep, calls: ModelStep["toolCalls"]): AIMessage {
  return new AIMessage({
    content: step.text,
    tool_calls: calls.map(({ id, name, args }) => ({ id, name, args, type: "tool_call" as const })),
    ...(calls.length > 0 && step.reasoning ? { additional_kwargs: { reasoning_content: step.reasoning } } : {}),
  });
}

/** The reasoning of each tool-calling step in the conversation, by the id of the step's first call. */
function reasoningOfToolSteps(messages: BaseMessage[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const message of messages) {
    if (!AIMessage.isInstance(message)) continue;
    const reasoning = message.additional_kwargs.reasoning_content;
    const first = message.tool_calls?.[0]?.id;
    if (typeof reasoning === "string" && reasoning && first) found.set(first, reasoning);
  }
  return found;
}

/**
 * Calls that must not run: arguments cut short by the token limit (a JSON parser would "complete"
 * them, and `{"command": "echo one; ec"}` would run), or not JSON at all. The model and the user are
 * told why, and the model can try again.
 */
function refusedCalls(step: ModelStep, calls: ModelStep["toolCalls"]): Map<string, ToolResult> {
  const refused = new Map<string, ToolResult>();
  for (const call of calls) {
    if (!call.malformed) continue;
    const cut = step.finishReason === "length";
    refused.set(call.id!, {
      ok: false,
      output: cut
        ? `Error: this ${call.name} call was not run: its arguments were cut off by the token limit (finish_reason "length") before they were complete. Make the call again with shorter arguments, or split the work.`
        : `Error: this ${call.name} call was not run: its arguments are not valid JSON. Make the call again with a JSON object of arguments.`,
      details: cut ? { cut_by_token_limit: true, raw_arguments: call.rawArgs } : { malformed_arguments: true, raw_arguments: call.rawArgs },
    });
  }
  return refused;
}

/** Calls answered without running because a steer overtook them (a refusal already made stands). */
function withSkipped(refused: Map<string, ToolResult>, skip: Set<string>): Map<string, ToolResult> {
  for (const id of skip) if (!refused.has(id)) refused.set(id, { ok: false, output: SKIPPED_FOR_STEER, details: { skipped: "steer" } });
  return refused;
}

/** The user's steering messages, each shown (a `steer` event, stored) and sent to the model as a user message. */
function deliverSteers(steers: Array<{ id: string; message: string }>, emit: (event: ChatEvent) => void): HumanMessage[] {
  return steers.map(({ id, message }) => {
    emit({ type: "steer", id, content: message });
    return new HumanMessage(message);
  });
}

/**
 * One agent turn, as a loop of our own: ask the model (streaming its thoughts and text), run the
 * tools it called (all at once), give it their results, until it answers without calling a tool or
 * the step limit is reached. At each step boundary the user's steering messages join the
 * conversation (calls of the step not yet started are skipped). Never throws: a failure is the
 * `error` outcome.
 */
/** No request holds more tokens than this; a larger figure is a server's garbage. */
const MAX_TOKENS = 100_000_000;

/** A token count as a provider reported it, kept only when it is one: a whole number from 0 to MAX_TOKENS. */
function tokenCount(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= MAX_TOKENS ? Math.round(value) : 0;
}

export async function runAgentTurn(input: AgentTurnInput): Promise<TurnOutcome> {
  const started = Date.now();
  const controller = new AbortController();
  const abortFromCaller = () => controller.abort(input.signal.reason ?? "aborted");
  if (input.signal.aborted) abortFromCaller();
  input.signal.addEventListener("abort", abortFromCaller, { once: true });
  /** The model request under way: the watchdog ends it (a failover may follow), not the turn. */
  let attempt: AbortController | null = null;
  /** Why the last request was ended by us (the timeout), for the turn's error. */
  let attemptEnded: string | undefined;
  let profileIndex = 0;
  const profile = () => input.profiles[profileIndex];
  const watchdog = new IdleWatchdog(profile().model.timeoutMs, () => (attempt ?? controller).abort(TIMEOUT_REASON));
  /** Whether the current step's model request has streamed anything yet (a failure then is not "unreachable"). */
  const streamed = { receivedAnyChunk: false };

  let dialect = newTurnDialect(profile().compat.reasoning_back);
  const definitions = input.tools.map(toolDefinition);
  /** The profile's model for one request, bound to its tools; `signal` ends its HTTP request at any stage. */
  const modelFor = async (signal: AbortSignal) => {
    const model = await createChatModel(profile().model, { signal, dialect, params: profile().params });
    // Binding returns the same kind of model with the tools among its options.
    return (definitions.length > 0 ? model.bindTools(definitions) : model) as ChatOpenAI;
  };
  const errorContext = () => ({
    baseUrl: profile().model.baseUrl,
    timeoutMs: profile().model.timeoutMs,
    receivedAnyChunk: streamed.receivedAnyChunk,
    profile: { name: profile().name, keySetting: profileKeySetting(profile().name) },
  });
  let system = input.systemPrompt ?? "";
  let messages: BaseMessage[] = [...input.messages];
  const activeSkill = { current: input.activeSkill ?? null };
  // Block ids are unique in the turn (a sub-agent's within its own delegate events).
  let blockCount = 0;
  const blocks = new BlockWriter(input.emit, () => `b${++blockCount}`);

  /** One step's model request, going down the fallbacks while nothing has streamed. */
  const requestStep = async (step: number): Promise<ModelStep> => {
    for (;;) {
      const request = new AbortController();
      const endWithTurn = () => request.abort(controller.signal.reason);
      // A turn stopped before its request (while the prompt was built) never sends it.
      if (controller.signal.aborted) endWithTurn();
      controller.signal.addEventListener("abort", endWithTurn, { once: true });
      attempt = request;
      attemptEnded = undefined;
      streamed.receivedAnyChunk = false;
      watchdog.touch();
      input.emit({ type: "step_start", step, model: profile().model.model, profile: profile().name });
      try {
        dialect.reasoningByCall = reasoningOfToolSteps(messages);
        return await streamModelStep(await modelFor(request.signal), [new SystemMessage(system), ...messages], {
          signal: request.signal,
          blocks,
          thinkTags: profile().compat.think_tags,
          onChunk: () => {
            streamed.receivedAnyChunk = true;
            watchdog.touch();
          },
        });
      } catch (err) {
        attemptEnded = request.signal.aborted && !controller.signal.aborted ? String(request.signal.reason) : undefined;
        const next = input.profiles[profileIndex + 1];
        const reason = controller.signal.aborted || !next ? null : failoverReason(err, { ...errorContext(), abortReason: attemptEnded });
        if (reason === null) throw err;
        input.emit({ type: "model_switch", why: "failover", step, from: profile().name, to: next.name, reason });
        profileIndex++;
        // What was learned of one server's dialect says nothing of the next one's.
        dialect = newTurnDialect(profile().compat.reasoning_back);
      } finally {
        controller.signal.removeEventListener("abort", endWithTurn);
        attempt = null;
      }
    }
  };

  /** How often Stop hooks made the agent go on in this turn. */
  let continued = 0;
  /** A hook said the turn must not continue: it ends here, with the hook's reason. */
  const hookStopped = (): TurnOutcome | null => {
    const reason = input.hooks?.stopped?.();
    return reason ? { type: "error", code: "hook_stopped", message: `A hook ended the turn: ${reason}` } : null;
  };
  try {
    for (let step = 1; ; step++) {
      const prepared = (await input.prepareStep?.({ step, messages })) ?? {};
      if (prepared.system !== undefined) system = prepared.system;
      if (prepared.messages) messages = prepared.messages;
      const result = await requestStep(step);
      const usage = result.usage;
      if (usage) {
        // A provider's figures are outside input: only counts a request can have are kept (NaN, objects, 1e308 are 0).
        const tokens = { input_tokens: tokenCount(usage.input_tokens), output_tokens: tokenCount(usage.output_tokens), cached_tokens: tokenCount(usage.input_token_details?.cache_read) };
        const reasoning = tokenCount(usage.output_token_details?.reasoning);
        const cost = requestCost(profile().prices, tokens);
        input.emit({
          type: "usage",
          ...tokens,
          ...(reasoning ? { reasoning_tokens: reasoning } : {}),
          profile: profile().name,
          model: result.responseModel ?? profile().model.model,
          ...(cost !== undefined ? { cost } : {}),
        });
      }
      input.emit({ type: "step_end", step, ...(result.finishReason ? { finish_reason: result.finishReason } : {}), ...(result.responseModel ? { response_model: result.responseModel } : {}) });
      const calls = callsOf(result);
      if (calls.length === 0) {
        const steers = input.steering?.take() ?? [];
        if (steers.length === 0) {
          // The user's Stop hooks may send the agent on, a bounded number of times.
          const goOn = input.hooks?.stop && !controller.signal.aborted ? await input.hooks.stop(result.text, continued) : null;
          const ended = hookStopped();
          if (ended) return ended;
          if (goOn !== null && continued < MAX_STOP_CONTINUES) {
            continued++;
            messages.push(stepMessage(result, []), new HumanMessage(stopHookMessage(goOn)));
            continue;
          }
          const cut = result.finishReason === "length" ? { finish_reason: "length" as const } : {};
          return { type: "final", content: result.text, duration_ms: Date.now() - started, ...cut };
        }
        // The user spoke while the model answered: what it wrote stays, and it answers again with their message.
        messages.push(stepMessage(result, []), ...deliverSteers(steers, input.emit));
        continue;
      }
      const message = stepMessage(result, calls);
      if (step > input.maxSteps) {
        return { type: "error", code: "model_error", message: `The agent used more than ${input.maxSteps} tool steps in one turn and was stopped.` };
      }
      messages.push(message);
      watchdog.pause();
      // A steer that came while the model wrote this step overtakes all its calls: none has started.
      const skip = input.steering?.pending() ? new Set(calls.map((c) => c.id!)) : new Set<string>();
      try {
        messages.push(
          ...(await runToolCalls(calls, {
            tools: input.tools,
            signal: controller.signal,
            locationPrefix: input.locationPrefix,
            step,
            emit: input.emit,
            activeSkill,
            onCrash: (name, err) => input.log.error({ err, tool: name }, "tool crashed"),
            refused: withSkipped(refusedCalls(result, calls), skip),
            approve: input.approve,
            track: input.track,
            cleanOutput: input.cleanOutput,
            hooks: input.hooks?.tools,
          })),
        );
      } finally {
        watchdog.resume();
      }
      if (controller.signal.aborted) throw controller.signal.reason;
      const ended = hookStopped();
      if (ended) return ended;
      // Calls that were running finished; the user's message goes after their results.
      messages.push(...deliverSteers(input.steering?.take() ?? [], input.emit));
    }
  } catch (err) {
    const abortReason = controller.signal.aborted ? String(controller.signal.reason ?? "aborted") : attemptEnded;
    const classified = classifyModelError(err, { ...errorContext(), abortReason });
    if (classified.code === "internal") input.log.error({ err }, "agent turn failed");
    return { type: "error", ...classified };
  } finally {
    watchdog.stop();
    input.signal.removeEventListener("abort", abortFromCaller);
  }
}
