import type { BaseMessage } from "@langchain/core/messages";
import { textOf } from "../agent/message-text.js";

/** Characters per token: the usual rough rule for English text and code, the same the prompt view uses. */
const CHARS_PER_TOKEN = 4;

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** A rough token count of a request: the system prompt plus every message, tool calls included. */
export function estimateRequestTokens(systemPrompt: string, messages: BaseMessage[]): number {
  let chars = systemPrompt.length;
  for (const message of messages) {
    chars += textOf(message.content).length;
    const calls = (message as { tool_calls?: unknown[] }).tool_calls;
    if (calls?.length) chars += JSON.stringify(calls).length;
  }
  return estimateTokens(chars);
}
