import type { ChatOpenAI } from "@langchain/openai";
import type { ModelConfig } from "../config/config.js";
import type { ResolvedProfile } from "../config/resolved-profile.js";
import { providerFetch, type TurnDialect } from "./provider-stream.js";

/**
 * A fetch whose every request also ends when `signal` does. LangChain races a run's signal against
 * the model call but, before the first byte, leaves the HTTP request itself running: a client that
 * left before the first token kept the model generating to the end.
 */
function fetchBoundTo(signal: AbortSignal | undefined): typeof fetch {
  if (!signal) return fetch;
  return (input, init) => fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
}

/**
 * ChatOpenAI against any OpenAI-compatible endpoint, whatever its dialect. `streaming: false` is for requests whose answer
 * is only used whole (a compaction summary). `signal` ends every request the model makes, at any stage.
 * `dialect`: what this turn has learned of the server (provider-stream.ts). `params`: a profile's
 * request parameters (each sent only when set: servers differ in what they take).
 */
export async function createChatModel(
  model: ModelConfig,
  { streaming = true, signal, dialect, params = {} }: { streaming?: boolean; signal?: AbortSignal; dialect?: TurnDialect; params?: ResolvedProfile["params"] } = {},
): Promise<ChatOpenAI> {
  // LangChain's OpenAI package loads with the first model call, not with the server (~150 ms of its start).
  const { ChatOpenAI } = await import("@langchain/openai");
  return new ChatOpenAI({
    model: model.model,
    // ChatOpenAI insists on a key even for local servers that ignore it.
    apiKey: model.apiKey ?? "not-needed",
    configuration: {
      ...(model.baseUrl ? { baseURL: model.baseUrl } : {}),
      // Every server's answers, brought to one shape before the client reads them (provider-stream.ts).
      fetch: providerFetch(fetchBoundTo(signal), dialect),
    },
    maxRetries: model.maxRetries,
    timeout: model.timeoutMs,
    streaming,
    streamUsage: streaming,
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
    ...(params.maxOutputTokens !== undefined ? { maxTokens: params.maxOutputTokens } : {}),
    // As a plain request field: ChatOpenAI's own `reasoning` option is sent only for OpenAI's o-series and gpt-5
    // names, and DeepSeek, vLLM, Ollama and OpenRouter take `reasoning_effort` too.
    ...(params.reasoningEffort !== undefined ? { modelKwargs: { reasoning_effort: params.reasoningEffort } } : {}),
  });
}
