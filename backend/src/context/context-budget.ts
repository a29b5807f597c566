import type { BaseMessage } from "@langchain/core/messages";
import type { SessionEntry } from "@mini-openclaw/protocol";
import { textOf } from "../agent/message-text.js";

/** Characters per token: the usual rough rule for English text and code, the same the prompt view uses. */
const CHARS_PER_TOKEN = 4;
/** What one attached image counts for in the budget. */
const IMAGE_TOKENS = 1_000;

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** A rough token count of a request: the system prompt plus every message, tool calls included. */
export function estimateRequestTokens(systemPrompt: string, messages: BaseMessage[]): number {
  let chars = systemPrompt.length;
  for (const message of messages) {
    chars += textOf(message.content).length;
    // An image at most 2,048 px on its side: about a thousand tokens at the providers' published rates.
    if (Array.isArray(message.content)) chars += message.content.filter((part) => part?.type === "image_url").length * IMAGE_TOKENS * CHARS_PER_TOKEN;
    const calls = (message as { tool_calls?: unknown[] }).tool_calls;
    if (calls?.length) chars += JSON.stringify(calls).length;
  }
  return estimateTokens(chars);
}

/**
 * What a request will cost: the tokens the server counted for the branch so far (its last step's
 * input and output, which hold the system prompt and the history up to there) and an estimate of
 * what was added since (the new message); where no step reported usage, an estimate of it all.
 */
export function requestTokens(systemPrompt: string, history: BaseMessage[], added: BaseMessage[], branch: SessionEntry[]): number {
  const last = branch.findLast((entry) => entry.type === "event" && entry.event.type === "usage");
  if (last?.type === "event" && last.event.type === "usage" && last.event.input_tokens + last.event.output_tokens > 0) {
    return last.event.input_tokens + last.event.output_tokens + estimateRequestTokens("", added);
  }
  return estimateRequestTokens(systemPrompt, [...history, ...added]);
}
