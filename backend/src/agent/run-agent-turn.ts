import { type AIMessage, type BaseMessage, SystemMessage } from "@langchain/core/messages";
import type { ChatEvent } from "@mini-openclaw/protocol";
import { createAgent } from "langchain";
import type { ModelConfig } from "../config/config.js";
import type { ActiveSkill, CoreTool, ToolContext } from "../tools/core-tool.js";
import { createChatModel } from "./chat-model.js";
import { IdleWatchdog } from "./idle-watchdog.js";
import { textOf } from "./message-text.js";
import { toLangChainTool } from "./langchain-tools.js";
import { classifyModelError, TIMEOUT_REASON } from "./model-errors.js";

export interface AgentTurnInput {
  model: ModelConfig;
  systemPrompt: string;
  /** The conversation so far plus the new user message. */
  messages: BaseMessage[];
  tools: CoreTool[];
  toolContext: Omit<ToolContext, "signal">;
  maxSteps: number;
  signal: AbortSignal;
  emit: (event: ChatEvent) => void;
  log: { error(obj: object, msg: string): void };
  /** A skill loaded before the turn (a slash command): active from the first tool call. */
  activeSkill?: ActiveSkill | null;
}

function reasoningOf(message: { additional_kwargs?: Record<string, unknown>; content?: unknown }): string {
  const fromKwargs = message.additional_kwargs?.reasoning_content;
  if (typeof fromKwargs === "string") return fromKwargs;
  if (!Array.isArray(message.content)) return "";
  return message.content
    .map((b) => ((b?.type === "reasoning" || b?.type === "thinking") && typeof (b.reasoning ?? b.thinking) === "string" ? (b.reasoning ?? b.thinking) : ""))
    .join("");
}

const isAi = (m: BaseMessage): m is AIMessage => m.getType() === "ai";

/**
 * One agent turn: streams the model's thoughts and tokens, runs tools, and ends with exactly one
 * `final` or `error` event. Never throws; every failure becomes an `error` event.
 */
export async function runAgentTurn(input: AgentTurnInput): Promise<void> {
  const started = Date.now();
  const controller = new AbortController();
  const abortFromCaller = () => controller.abort(input.signal.reason ?? "aborted");
  if (input.signal.aborted) abortFromCaller();
  input.signal.addEventListener("abort", abortFromCaller, { once: true });

  const watchdog = new IdleWatchdog(input.model.timeoutMs, () => controller.abort(TIMEOUT_REASON));
  let step = 0;
  let receivedAnyChunk = false;
  let lastAnswer = "";
  const reported = new Set<string>();
  const plannedCalls = new Map<string, { name: string; args: unknown; step: number }>();
  const emit = (event: ChatEvent) => {
    if (event.type === "tool_call") reported.add(event.id);
    input.emit(event);
  };

  const toolContext: ToolContext = { ...input.toolContext, signal: controller.signal };
  const activeSkill = { current: input.activeSkill ?? null };
  const tools = input.tools.map((core) =>
    toLangChainTool(core, toolContext, {
      currentStep: () => step,
      onStart: () => watchdog.pause(),
      onEnd: () => watchdog.resume(),
      onCrash: (name, err) => input.log.error({ err, tool: name }, "tool crashed"),
      activeSkill,
    }),
  );
  const model = createChatModel(
    input.model,
    () => {
      step++;
      receivedAnyChunk = false;
    },
    { signal: controller.signal },
  );
  const agent = createAgent({ model, tools, systemPrompt: new SystemMessage(input.systemPrompt) });

  try {
    watchdog.touch();
    const stream = await agent.stream(
      { messages: input.messages },
      {
        streamMode: ["messages", "updates", "custom"],
        signal: controller.signal,
        // Each step is a model request and a tools run: two graph nodes.
        recursionLimit: input.maxSteps * 2 + 1,
      },
    );
    for await (const [mode, chunk] of stream as AsyncIterable<[string, unknown]>) {
      watchdog.touch();
      if (mode === "custom") {
        emit(chunk as ChatEvent);
      } else if (mode === "messages") {
        const [message] = chunk as [BaseMessage, unknown];
        if (!isAi(message)) continue;
        receivedAnyChunk = true;
        const thought = reasoningOf(message);
        if (thought) emit({ type: "thought", content: thought });
        const text = textOf(message.content);
        if (text) emit({ type: "token", content: text });
      } else if (mode === "updates") {
        for (const [node, update] of Object.entries(chunk as Record<string, { messages?: BaseMessage[] }>)) {
          for (const message of update?.messages ?? []) {
            if (node === "model_request" && isAi(message)) {
              lastAnswer = textOf(message.content);
              const usage = message.usage_metadata;
              if (usage) {
                emit({
                  type: "usage",
                  input_tokens: usage.input_tokens ?? 0,
                  output_tokens: usage.output_tokens ?? 0,
                  cached_tokens: usage.input_token_details?.cache_read ?? 0,
                });
              }
              for (const call of message.tool_calls ?? []) {
                if (call.id) plannedCalls.set(call.id, { name: call.name, args: call.args, step });
              }
            } else if (node === "tools" && message.getType() === "tool") {
              reportRejectedCall(message, plannedCalls, reported, emit);
            }
          }
        }
      }
    }
    emit({ type: "final", content: lastAnswer, duration_ms: Date.now() - started });
  } catch (err) {
    const abortReason = controller.signal.aborted ? String(controller.signal.reason ?? "aborted") : undefined;
    if ((err as Error)?.name === "GraphRecursionError") {
      emit({ type: "error", code: "model_error", message: `The agent used more than ${input.maxSteps} tool steps in one turn and was stopped.` });
    } else {
      const classified = classifyModelError(err, { baseUrl: input.model.baseUrl, timeoutMs: input.model.timeoutMs, abortReason, receivedAnyChunk });
      if (classified.code === "internal") input.log.error({ err }, "agent turn failed");
      emit({ type: "error", ...classified });
    }
  } finally {
    watchdog.stop();
    input.signal.removeEventListener("abort", abortFromCaller);
  }
}

/**
 * A call the model made with arguments that fail the tool's schema never reaches our wrapper;
 * LangChain answers it with an error message. Report it like any other call so the user sees it.
 */
function reportRejectedCall(
  message: BaseMessage,
  planned: Map<string, { name: string; args: unknown; step: number }>,
  reported: Set<string>,
  emit: (event: ChatEvent) => void,
) {
  const id = (message as { tool_call_id?: string }).tool_call_id;
  if (!id || reported.has(id)) return;
  const call = planned.get(id);
  const name = call?.name ?? (message as { name?: string }).name ?? "unknown";
  const now = Date.now();
  emit({ type: "tool_call", id, name, input: call?.args ?? null, step: call?.step ?? 0, started_at: now });
  emit({ type: "tool_result", id, name, output: textOf(message.content), ok: false, duration_ms: 0 });
}
