import { AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import type { Runnable } from "@langchain/core/runnables";
import type { ChatEvent } from "@mini-openclaw/protocol";
import { textOf } from "./message-text.js";

/** Reasoning in a chunk: DeepSeek-style `reasoning_content`, or reasoning/thinking content blocks. */
function reasoningOf(message: { additional_kwargs?: Record<string, unknown>; content?: unknown }): string {
  const fromKwargs = message.additional_kwargs?.reasoning_content;
  if (typeof fromKwargs === "string") return fromKwargs;
  if (!Array.isArray(message.content)) return "";
  return message.content
    .map((b) => ((b?.type === "reasoning" || b?.type === "thinking") && typeof (b.reasoning ?? b.thinking) === "string" ? (b.reasoning ?? b.thinking) : ""))
    .join("");
}

/**
 * One model request of a turn: streams its reasoning and text as `thought` and `token` events as
 * they arrive and returns the whole message (text, tool calls, usage). `onChunk` sees every chunk,
 * content or not (the idle watchdog).
 */
export async function streamModelStep(
  model: Runnable<BaseMessage[], AIMessageChunk>,
  messages: BaseMessage[],
  { signal, emit, onChunk }: { signal: AbortSignal; emit: (event: ChatEvent) => void; onChunk: () => void },
): Promise<AIMessageChunk> {
  let message: AIMessageChunk | null = null;
  const stream = await model.stream(messages, { signal });
  for await (const chunk of stream) {
    onChunk();
    message = message ? message.concat(chunk) : chunk;
    const thought = reasoningOf(chunk);
    if (thought) emit({ type: "thought", content: thought });
    const text = textOf(chunk.content);
    if (text) emit({ type: "token", content: text });
  }
  return message ?? new AIMessageChunk({ content: "" });
}
