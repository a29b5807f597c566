import type { CompatInForce, ProfileCapabilities, ProfilePrices, RequestUsage } from "@mini-openclaw/protocol";
import type { ModelConfig } from "./config.js";

/** A model profile ready to call: its endpoint and key (`model`), its request parameters, prices and fallbacks. */
export interface ResolvedProfile {
  name: string;
  model: ModelConfig;
  params: {
    temperature?: number;
    maxOutputTokens?: number;
    reasoningEffort?: "minimal" | "low" | "medium" | "high";
    /** Tokens the model's context holds. */
    contextWindow?: number;
  };
  prices: ProfilePrices | null;
  capabilities: ProfileCapabilities;
  /** What its server needs beyond OpenAI's chat completions (models/provider-compat.ts). */
  compat: CompatInForce;
  fallbacks: string[];
}

/** The profile `model` makes when there is nothing else: the `OPENAI_*` settings alone. */
export const plainProfile = (name: string, model: ModelConfig, compat: CompatInForce): ResolvedProfile => ({ name, model, params: {}, prices: null, capabilities: {}, compat, fallbacks: [] });

/**
 * What one request cost in US dollars, from prices per million tokens. Cached input tokens are part
 * of the input tokens (as OpenAI reports them) and cost the cached price where there is one.
 */
export function requestCost(prices: ProfilePrices | null, usage: { input_tokens: number; cached_tokens: number; output_tokens: number }): number | undefined {
  if (!prices) return undefined;
  const cached = Math.min(usage.cached_tokens, usage.input_tokens);
  const fresh = usage.input_tokens - cached;
  const dollars = (fresh * prices.input + cached * (prices.cached_input ?? prices.input) + usage.output_tokens * prices.output) / 1_000_000;
  // Micro-dollars: sums of many requests stay exact enough, and the stored number stays short.
  return Math.round(dollars * 1e6) / 1e6;
}

/** Two requests' usage as one (a helper's several steps): tokens and cost added, the later one's profile and model. */
export function addUsage(total: RequestUsage | undefined, usage: RequestUsage): RequestUsage {
  total ??= { input_tokens: 0, cached_tokens: 0, output_tokens: 0 };
  const sum = (a: number | undefined, b: number | undefined) => (a === undefined && b === undefined ? undefined : Math.round(((a ?? 0) + (b ?? 0)) * 1e6) / 1e6);
  const reasoning = sum(total.reasoning_tokens, usage.reasoning_tokens);
  const cost = sum(total.cost, usage.cost);
  return {
    input_tokens: total.input_tokens + usage.input_tokens,
    cached_tokens: total.cached_tokens + usage.cached_tokens,
    output_tokens: total.output_tokens + usage.output_tokens,
    ...(reasoning !== undefined ? { reasoning_tokens: reasoning } : {}),
    ...(usage.profile ? { profile: usage.profile } : {}),
    ...(usage.model ? { model: usage.model } : {}),
    ...(cost !== undefined ? { cost } : {}),
  };
}
