import type { AIMessageChunk, BaseMessage, UsageMetadata } from "@langchain/core/messages";
import type { ChatOpenAI } from "@langchain/openai";
import type { ToolCall } from "@langchain/core/messages/tool";
import type { ChatEvent } from "@mini-openclaw/protocol";
import { textOf } from "./message-text.js";
import { ThinkTagSplitter } from "./think-tags.js";
import { DeltaCoalescer } from "./delta-coalescer.js";

/** A tool call as the model wrote it: parsed arguments, and the raw text they were parsed from. */
export interface StepToolCall extends ToolCall {
  /** The arguments exactly as streamed; null when the server sent them already parsed. */
  rawArgs: string | null;
  /** The arguments were not valid JSON (parsing them took a guess, or failed). */
  malformed: boolean;
}

/** What one model request produced, whole. */
export interface ModelStep {
  /** The answer text, reasoning taken out. */
  text: string;
  /** The step's reasoning, whichever way it came. */
  reasoning: string;
  toolCalls: StepToolCall[];
  usage?: UsageMetadata;
  /** Why the model stopped, as the server said: "stop", "tool_calls", "length" (the token limit)... */
  finishReason: string | null;
  /** Provider fields LangChain keeps beside the content. */
  additionalKwargs: Record<string, unknown>;
}

/** A streaming loop that never yields would hold every other socket (the client's included) until the model is done. */
const YIELD_EVERY_MS = 8;

/** Reasoning in a chunk: DeepSeek-style `reasoning_content`, or reasoning/thinking content blocks. */
function reasoningOf(message: { additional_kwargs?: Record<string, unknown>; content?: unknown }): string {
  const fromKwargs = message.additional_kwargs?.reasoning_content;
  if (typeof fromKwargs === "string") return fromKwargs;
  if (!Array.isArray(message.content)) return "";
  return message.content
    .map((b) => ((b?.type === "reasoning" || b?.type === "thinking") && typeof (b.reasoning ?? b.thinking) === "string" ? (b.reasoning ?? b.thinking) : ""))
    .join("");
}

/** Whether a chunk carries more than text and reasoning: tool-call pieces, usage, other provider fields. */
function carriesMore(chunk: AIMessageChunk): boolean {
  if ((chunk.tool_call_chunks?.length ?? 0) > 0 || chunk.usage_metadata) return true;
  for (const key in chunk.additional_kwargs) if (key !== "reasoning_content") return true;
  return false;
}

/**
 * One model request of a turn: streams its reasoning and text as `thought` and `token` events as
 * they arrive and returns the whole step. Text is gathered as strings; only the few chunks that
 * carry tool calls or usage are merged as LangChain messages. `onChunk` sees every chunk, content
 * or not (the idle watchdog).
 *
 * The chunks come from the model's `_streamResponseChunks`, the generator every LangChain chat
 * model implements and `stream()` wraps: the wrapper merges every chunk into a running total and
 * sets up callbacks again for each one, which cost more per chunk than decoding it (bench:turn).
 * The turn needs neither (it keeps its own text and has no tracing). The tools bound to the model
 * and its options apply as with `stream()`; an abort ends the generator quietly, so it is rethrown.
 */
/** The step's tool calls: the parsed ones and those LangChain could not parse, each with its raw arguments. */
function toolCallsOf(rest: AIMessageChunk | null): StepToolCall[] {
  if (!rest) return [];
  const raw = new Map<string, string>();
  for (const chunk of rest.tool_call_chunks ?? []) if (chunk.id && typeof chunk.args === "string") raw.set(chunk.id, chunk.args);
  const strict = (text: string | undefined) => {
    if (text === undefined) return true;
    try {
      JSON.parse(text || "{}");
      return true;
    } catch {
      return false;
    }
  };
  const parsed = (rest.tool_calls ?? []).map((call) => {
    const rawArgs = call.id ? (raw.get(call.id) ?? null) : null;
    return { ...call, rawArgs, malformed: rawArgs !== null && !strict(rawArgs) };
  });
  const invalid = (rest.invalid_tool_calls ?? []).map((call) => ({
    id: call.id ?? "",
    name: call.name ?? "unknown",
    args: {},
    type: "tool_call" as const,
    rawArgs: call.args ?? "",
    malformed: true,
  }));
  return [...parsed, ...invalid];
}

export async function streamModelStep(
  model: ChatOpenAI,
  messages: BaseMessage[],
  { signal, emit, onChunk }: { signal: AbortSignal; emit: (event: ChatEvent) => void; onChunk: (chunk: AIMessageChunk) => void },
): Promise<ModelStep> {
  let text = "";
  let reasoning = "";
  let finishReason: string | null = null;
  let rest: AIMessageChunk | null = null;
  let lastYield = performance.now();
  const tags = new ThinkTagSplitter();
  const deltas = new DeltaCoalescer(emit);
  const show = (split: { thought: string; text: string; lateThought?: number }) => {
    if (split.lateThought) {
      // Text already streamed was reasoning (think-tags.ts): take it back from the answer.
      reasoning += text.slice(text.length - split.lateThought);
      text = text.slice(0, text.length - split.lateThought);
      deltas.flush();
      emit({ type: "late_thought", chars: split.lateThought });
    }
    if (split.thought) {
      reasoning += split.thought;
      deltas.push("thought", split.thought);
    }
    if (split.text) {
      text += split.text;
      deltas.push("token", split.text);
    }
  };
  try {
    for await (const generation of model._streamResponseChunks(messages, { signal } as ChatOpenAI["ParsedCallOptions"])) {
      const chunk = generation.message as AIMessageChunk;
      onChunk(chunk);
      if (carriesMore(chunk)) rest = rest ? rest.concat(chunk) : chunk;
      const reason = generation.generationInfo?.finish_reason;
      if (typeof reason === "string") finishReason = reason;
      show({ thought: reasoningOf(chunk), text: "" });
      const piece = textOf(chunk.content);
      if (piece) show(tags.push(piece));
      if (performance.now() - lastYield > YIELD_EVERY_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        lastYield = performance.now();
      }
    }
    signal.throwIfAborted();
    show(tags.end());
  } finally {
    // What was streamed before an abort or an error is part of the answer the turn keeps.
    deltas.flush();
  }
  const { reasoning_content: _reasoning, tool_calls: _calls, ...additionalKwargs } = rest?.additional_kwargs ?? {};
  return { text, reasoning, toolCalls: toolCallsOf(rest), usage: rest?.usage_metadata, finishReason, additionalKwargs };
}
