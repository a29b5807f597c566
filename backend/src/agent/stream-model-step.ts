import type { AIMessageChunk, BaseMessage, UsageMetadata } from "@langchain/core/messages";
import type { ChatOpenAI } from "@langchain/openai";
import type { ToolCall } from "@langchain/core/messages/tool";
import type { ChatEvent } from "@mini-openclaw/protocol";
import { textOf } from "./message-text.js";

/** What one model request produced, whole. */
export interface ModelStep {
  text: string;
  toolCalls: ToolCall[];
  usage?: UsageMetadata;
  /** Provider fields LangChain keeps beside the content (e.g. `reasoning_content`). */
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
export async function streamModelStep(
  model: ChatOpenAI,
  messages: BaseMessage[],
  { signal, emit, onChunk }: { signal: AbortSignal; emit: (event: ChatEvent) => void; onChunk: () => void },
): Promise<ModelStep> {
  let text = "";
  let rest: AIMessageChunk | null = null;
  let lastYield = performance.now();
  for await (const generation of model._streamResponseChunks(messages, { signal } as ChatOpenAI["ParsedCallOptions"])) {
    const chunk = generation.message as AIMessageChunk;
    onChunk();
    if (carriesMore(chunk)) rest = rest ? rest.concat(chunk) : chunk;
    const thought = reasoningOf(chunk);
    if (thought) emit({ type: "thought", content: thought });
    const piece = textOf(chunk.content);
    if (piece) {
      text += piece;
      emit({ type: "token", content: piece });
    }
    if (performance.now() - lastYield > YIELD_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      lastYield = performance.now();
    }
  }
  signal.throwIfAborted();
  const { reasoning_content: _reasoning, ...additionalKwargs } = rest?.additional_kwargs ?? {};
  return { text, toolCalls: rest?.tool_calls ?? [], usage: rest?.usage_metadata, additionalKwargs };
}
