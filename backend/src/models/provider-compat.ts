/**
 * Provider quirks as data: what a profile's server needs beyond OpenAI's chat completions, detected
 * from the server's documented host and overridable per profile in MODELS.json (`compat`). What no
 * declared quirk covers, the stream normalisation handles for every server alike (error shapes,
 * reasoning in another field, a JSON answer to a streamed request: agent/provider-stream.ts).
 */
import type { CompatInForce, ProviderCompat } from "@mini-openclaw/protocol";
import { endpointOf } from "../config/default-endpoint.js";

/** Each documented server, by host, with the quirks its documentation states. */
const DOCUMENTED: Array<{ host: string; name: string; compat: Required<ProviderCompat> }> = [
  // DeepSeek's thinking mode: the reasoning_content of every assistant message that called tools must
  // come back in every later request, or the request is refused (api-docs.deepseek.com, Thinking Mode).
  { host: "api.deepseek.com", name: "DeepSeek", compat: { reasoning_back: "tool_steps", think_tags: true } },
  // OpenAI's chat completions stream no reasoning text and refuse message fields they do not know;
  // an answer that starts with "<think>" is the answer.
  { host: "api.openai.com", name: "OpenAI", compat: { reasoning_back: "never", think_tags: false } },
];

const UNKNOWN: Required<ProviderCompat> = { reasoning_back: "auto", think_tags: true };

function hostOf(baseUrl: string | null): string | null {
  try {
    return new URL(endpointOf(baseUrl)).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** The quirks in force for a server (`baseUrl` null: OpenAI's own), the declared ones over the detected ones. */
export function compatInForce(baseUrl: string | null, declared: ProviderCompat = {}): CompatInForce {
  const host = hostOf(baseUrl);
  const documented = DOCUMENTED.find((d) => d.host === host);
  const detected = documented?.compat ?? UNKNOWN;
  return {
    reasoning_back: declared.reasoning_back ?? detected.reasoning_back,
    think_tags: declared.think_tags ?? detected.think_tags,
    detected_for: documented?.name ?? null,
  };
}
