import type { ChatErrorCode } from "@mini-openclaw/protocol";
import { endpointOf } from "../config/default-endpoint.js";

export const TIMEOUT_REASON = "model_timeout";
export const CLIENT_GONE_REASON = "client_disconnected";
/** Why a turn was aborted by us: the user's Stop, or the workbench shutting down. Both end it as `aborted`. */
export const STOPPED_REASON = "stopped_by_user";
export const SHUTDOWN_REASON = "server_shutdown";

/** How servers word a request over the context window (OpenAI, vLLM, llama.cpp, Ollama, DeepSeek, OpenRouter). */
const CONTEXT_TOO_LONG = /context length|context window|maximum context|too many tokens|prompt is too long|exceeds the (?:available )?context|n_ctx/i;
/** How servers word a model that takes no tools (Ollama: "does not support tools"; vLLM without a tool parser). */
const TOOLS_UNSUPPORTED = /does not support tools|tools? (?:are |is )?not supported|tool[_ ]choice.*(?:not supported|requires)|enable-auto-tool-choice/i;

export interface ClassifiedError {
  code: ChatErrorCode;
  message: string;
}

function statusOf(err: unknown): number | undefined {
  const e = err as { status?: unknown; cause?: { status?: unknown }; response?: { status?: unknown } };
  for (const candidate of [e?.status, e?.cause?.status, e?.response?.status]) {
    if (typeof candidate === "number") return candidate;
  }
  return undefined;
}

function providerMessage(err: unknown): string {
  const e = err as { error?: { message?: unknown }; message?: unknown };
  const text = typeof e?.error?.message === "string" ? e.error.message : typeof e?.message === "string" ? e.message : "";
  // Keep it short and single-line: provider messages can be long HTML pages.
  return text.replace(/\s+/g, " ").slice(0, 300);
}

/**
 * Turns whatever the model client threw into one readable message for the user.
 * `abortReason` is why we aborted the turn ourselves, if we did.
 */
/** The network's own reason under a connection error (" (connect ECONNREFUSED 127.0.0.1:1)"), or "". */
function causeOf(err: unknown): string {
  let deepest = "";
  for (let at = (err as { cause?: unknown })?.cause, depth = 0; at && depth < 5; at = (at as { cause?: unknown }).cause, depth++) {
    const { code, message } = at as { code?: unknown; message?: unknown };
    if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return ` (${typeof message === "string" && message.includes(code) ? message.slice(0, 200) : code})`;
    if (typeof message === "string" && message !== "fetch failed") deepest = message.slice(0, 200);
  }
  return deepest ? ` (${deepest})` : "";
}

export function classifyModelError(
  err: unknown,
  ctx: {
    baseUrl: string | null;
    timeoutMs: number;
    abortReason?: string;
    receivedAnyChunk: boolean;
    /** The profile called and the setting its key is read from (absent: the one `OPENAI_*` endpoint). */
    profile?: { name: string; keySetting: string };
  },
): ClassifiedError {
  const endpoint = endpointOf(ctx.baseUrl);
  const keySetting = ctx.profile?.keySetting ?? "OPENAI_API_KEY";
  const which = ctx.profile && ctx.profile.name !== "default" ? ` (profile "${ctx.profile.name}")` : "";
  if (ctx.abortReason === TIMEOUT_REASON) {
    return {
      code: "model_timeout",
      message: `The model at ${endpoint} sent nothing for ${Math.round(ctx.timeoutMs / 1000)} s; the turn was stopped. Try again, or raise MODEL_TIMEOUT_MS.`,
    };
  }
  if (ctx.abortReason === CLIENT_GONE_REASON) {
    return { code: "aborted", message: "The turn was stopped: the client disconnected." };
  }
  if (ctx.abortReason === SHUTDOWN_REASON) return { code: "aborted", message: "The turn was stopped: the workbench shut down." };
  if (ctx.abortReason) return { code: "aborted", message: "The turn was stopped." };

  const name = (err as { name?: string; constructor?: { name?: string } })?.constructor?.name ?? (err as Error)?.name;
  const status = statusOf(err);
  if (status === 401 || status === 403) {
    return {
      code: "model_auth",
      message: `The model endpoint ${endpoint}${which} refused the credentials (${status}): check ${keySetting} in KEY.md. ${providerMessage(err)}`.trim(),
    };
  }
  if (status === 404) {
    const settings = which ? `the profile's model and base URL` : "OPENAI_MODEL and OPENAI_BASE_URL";
    return { code: "model_error", message: `The model endpoint ${endpoint}${which} answered 404: check ${settings}. ${providerMessage(err)}`.trim() };
  }
  if (status === 429) {
    return { code: "rate_limited", message: `The model endpoint is rate-limiting requests (429): ${providerMessage(err) || "try again in a moment"}` };
  }
  const words = providerMessage(err);
  if (typeof status === "number" && CONTEXT_TOO_LONG.test(words)) {
    return { code: "context_too_long", message: `The conversation is longer than the model's context window (${status}): ${words}. Compact the session, or start a new one.` };
  }
  if (typeof status === "number" && TOOLS_UNSUPPORTED.test(words)) {
    return { code: "tools_unsupported", message: `The model does not take tools (${status}): ${words}. Pick a model that supports tool calling.` };
  }
  if (typeof status === "number") {
    return { code: "model_error", message: `The model endpoint answered ${status}: ${words || "no details"}` };
  }
  // An error the server reported inside a stream that had started (no HTTP status of its own).
  if (name === "APIError" && words) {
    return { code: "model_error", message: `The model server reported an error mid-answer: ${words}` };
  }
  if (name === "APIConnectionTimeoutError" || /timed? ?out/i.test(providerMessage(err))) {
    return { code: "model_timeout", message: `The model at ${endpoint} did not answer within ${Math.round(ctx.timeoutMs / 1000)} s.` };
  }
  if (name === "APIConnectionError" || /ECONNREFUSED|ENOTFOUND|fetch failed|socket|terminated/i.test(providerMessage(err))) {
    return ctx.receivedAnyChunk
      ? { code: "model_bad_response", message: `The model's stream from ${endpoint} broke off mid-answer (connection closed).` }
      : {
          code: "model_unreachable",
          message: `Cannot reach the model endpoint ${endpoint}${which}${causeOf(err)}: is the server running? Check ${which ? "the profile's base URL" : "the base URL in the Model dialog (OPENAI_BASE_URL)"}.`,
        };
  }
  if (err instanceof SyntaxError) {
    return { code: "model_bad_response", message: `The model endpoint ${endpoint} sent a response that is not valid JSON.` };
  }
  return { code: "internal", message: `The turn failed: ${providerMessage(err) || String(err)}` };
}

/**
 * Why a step's request may go on with the profile's next fallback, or null when it must not: only
 * before anything streamed, and only when the endpoint is down, refuses for load (429, 5xx) or was
 * silent past the timeout. A 401/403 is the user's to fix, and other refusals would fail the same way.
 */
export function failoverReason(err: unknown, ctx: Parameters<typeof classifyModelError>[1]): string | null {
  if (ctx.receivedAnyChunk) return null;
  const classified = classifyModelError(err, ctx);
  const status = statusOf(err);
  const retriable = classified.code === "model_timeout" || classified.code === "model_unreachable" || status === 429 || (status !== undefined && status >= 500);
  return retriable ? classified.message : null;
}
