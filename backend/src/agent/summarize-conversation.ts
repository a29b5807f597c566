import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { profileKeySetting, type RequestUsage } from "@mini-openclaw/protocol";
import { requestCost, type ResolvedProfile } from "../config/resolved-profile.js";
import { UserError } from "../lib/user-error.js";
import { createChatModel } from "./chat-model.js";
import { textOf } from "./message-text.js";
import { classifyModelError } from "./model-errors.js";

export const COMPACTION_INSTRUCTIONS =
  "You compact a conversation between a user and an AI agent so the agent can continue it with less context. " +
  "Write a summary in plain Markdown that keeps: what the user wants and every constraint they gave; decisions made; " +
  "facts found with tools (file paths, numbers, URLs, results) that later steps may need; what is done and what is still " +
  "open. Leave out greetings and anything superseded. Do not repeat skill instructions: they are carried over separately. " +
  "Answer with the summary only.";

/**
 * Asks the profile's model to summarize a transcript; returns the summary and what the request used.
 * Failures become a UserError (502, or 504 for a timeout) with the same readable message a failed turn gets.
 */
export async function summarizeConversation(profile: ResolvedProfile, transcript: string, signal: AbortSignal): Promise<{ summary: string; usage?: RequestUsage }> {
  const { model } = profile;
  const chat = await createChatModel(model, { streaming: false, params: profile.params });
  try {
    const reply = await chat.invoke([new SystemMessage(COMPACTION_INSTRUCTIONS), new HumanMessage(transcript)], { signal });
    const summary = textOf(reply.content).trim();
    if (!summary) throw new UserError("upstream_failed", "The model answered the compaction request with an empty summary.");
    const reported = reply.usage_metadata;
    if (!reported) return { summary };
    const tokens = { input_tokens: reported.input_tokens, output_tokens: reported.output_tokens, cached_tokens: reported.input_token_details?.cache_read ?? 0 };
    const cost = requestCost(profile.prices, tokens);
    return { summary, usage: { ...tokens, profile: profile.name, model: model.model, ...(cost !== undefined ? { cost } : {}) } };
  } catch (err) {
    if (err instanceof UserError) throw err;
    const classified = classifyModelError(err, {
      baseUrl: model.baseUrl,
      timeoutMs: model.timeoutMs,
      abortReason: signal.aborted ? String(signal.reason ?? "aborted") : undefined,
      receivedAnyChunk: false,
      profile: { name: profile.name, keySetting: profileKeySetting(profile.name) },
    });
    throw new UserError(classified.code === "model_timeout" ? "model_timeout" : "upstream_failed", `Compaction failed: ${classified.message}`);
  }
}
