import { ChatOpenAI } from "@langchain/openai";
import type { ModelConfig } from "../config/config.js";

/**
 * ChatOpenAI against any OpenAI-compatible endpoint. `onRequestStart` fires once per model
 * request, in graph order, which is how the turn counts its steps. `streaming: false` is for
 * requests whose answer is only used whole (a compaction summary).
 */
export function createChatModel(model: ModelConfig, onRequestStart: () => void, { streaming = true } = {}): ChatOpenAI {
  return new ChatOpenAI({
    model: model.model,
    // ChatOpenAI insists on a key even for local servers that ignore it.
    apiKey: model.apiKey ?? "not-needed",
    configuration: model.baseUrl ? { baseURL: model.baseUrl } : undefined,
    maxRetries: model.maxRetries,
    timeout: model.timeoutMs,
    streaming,
    streamUsage: streaming,
    callbacks: [{ handleChatModelStart: onRequestStart }],
  });
}
