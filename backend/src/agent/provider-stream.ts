/**
 * The one place where what OpenAI-compatible servers send is brought to the shape the OpenAI client
 * (and LangChain's ChatOpenAI over it) understands, before either reads it. Servers differ in where
 * they put reasoning, how they report errors, and whether they stream at all; left alone, the client
 * takes an error object for a chunk and reports an error body it cannot find as "(no body)". (Where
 * reasoning streams, `reasoning_content` or `reasoning`, and tool calls without ids, LangChain's
 * content-block stream reads as they are; see stream-model-step.ts.) Each rule here follows a
 * server's documented behaviour (test/model-servers.test.ts plays them).
 *
 * Text-level rules (`<think>` tags in the content) live in think-tags.ts, since they need the
 * stream's state across chunks.
 */
import type { CompatInForce } from "@mini-openclaw/protocol";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * An error object as the client expects it, `{error: {message, ...}}`, from the shapes servers use:
 * OpenAI's own, or vLLM's flat `{object: "error", message, type, code}`. Null when it is no error.
 */
function asErrorBody(body: unknown): Json | null {
  if (!isObject(body)) return null;
  if (isObject(body.error)) return null; // already the expected shape
  if (body.object === "error" || (typeof body.message === "string" && !("choices" in body))) {
    const { object: _object, ...error } = body;
    return { error };
  }
  if (typeof body.error === "string") return { error: { message: body.error } }; // Ollama's native errors
  return null;
}

/**
 * What a turn gives its server back, and what it learns of it: DeepSeek's thinking mode (and servers
 * like it) require the reasoning of each tool-calling step to come back on that step's assistant
 * message, as `reasoning_content`, in every later request; OpenAI refuses message fields it does not
 * know. The profile's `compat.reasoning_back` says which (models/provider-compat.ts): `auto` gives it
 * back once the server has streamed `reasoning_content` in the turn.
 */
export interface TurnDialect {
  reasoningBack: CompatInForce["reasoning_back"];
  /** The server streamed `reasoning_content` itself (not another field read as reasoning). */
  sendsReasoningContent: boolean;
  /** The reasoning of the conversation's tool-calling steps, by the id of each step's first call (set before each request). */
  reasoningByCall: Map<string, string>;
}

export const newTurnDialect = (reasoningBack: CompatInForce["reasoning_back"] = "auto"): TurnDialect => ({ reasoningBack, sendsReasoningContent: false, reasoningByCall: new Map() });

/** The request body with the reasoning put back on its tool-calling steps, where the server wants it. */
function withReasoningBack(body: string, dialect: TurnDialect): string {
  const giveBack = dialect.reasoningBack === "tool_steps" || (dialect.reasoningBack === "auto" && dialect.sendsReasoningContent);
  if (!giveBack || dialect.reasoningByCall.size === 0) return body;
  let request: unknown;
  try {
    request = JSON.parse(body);
  } catch {
    return body;
  }
  if (!isObject(request) || !Array.isArray(request.messages)) return body;
  let changed = false;
  for (const message of request.messages) {
    if (!isObject(message) || message.role !== "assistant" || !Array.isArray(message.tool_calls) || !isObject(message.tool_calls[0])) continue;
    const reasoning = dialect.reasoningByCall.get(String(message.tool_calls[0].id));
    if (reasoning === undefined) continue;
    message.reasoning_content = reasoning;
    changed = true;
  }
  return changed ? JSON.stringify(request) : body;
}

/**
 * Reasoning a server sent only as OpenRouter's `reasoning_details` (no `reasoning` beside it), as the
 * `reasoning` field LangChain's stream reads (it reads `reasoning_content` and `reasoning` itself).
 */
function reasoningFromDetails(message: Json): void {
  if (typeof message.reasoning === "string" || typeof message.reasoning_content === "string" || !Array.isArray(message.reasoning_details)) return;
  const text = message.reasoning_details.map((d) => (isObject(d) && typeof d.text === "string" ? d.text : isObject(d) && typeof d.summary === "string" ? d.summary : "")).join("");
  if (text) message.reasoning = text;
}

/**
 * One `data:` payload of a stream, rewritten if it needs to be. Almost every frame passes untouched,
 * parsed once, by the OpenAI client: a frame is read here only when it may be an error in a shape the
 * client does not know (vLLM's flat one), may hold reasoning only in `reasoning_details`, or may teach
 * the turn that its server sends `reasoning_content` (its first such frame).
 */
function normalizeFrame(data: string, dialect?: TurnDialect): string {
  const mayBeError = data.includes('"error"');
  const mayTeach = dialect !== undefined && !dialect.sendsReasoningContent && data.includes('"reasoning_content"');
  const mayNeedReasoning = data.includes('"reasoning_details"');
  if (!mayBeError && !mayTeach && !mayNeedReasoning) return data;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return data; // the client reports what it cannot parse
  }
  const error = asErrorBody(value);
  if (error) return JSON.stringify(error);
  if (!isObject(value) || !Array.isArray(value.choices)) return data;
  let changed = false;
  for (const choice of value.choices) {
    if (!isObject(choice) || !isObject(choice.delta)) continue;
    if (dialect && typeof choice.delta.reasoning_content === "string") dialect.sendsReasoningContent = true;
    if (mayNeedReasoning) {
      const before = choice.delta.reasoning;
      reasoningFromDetails(choice.delta);
      changed ||= choice.delta.reasoning !== before;
    }
  }
  return changed ? JSON.stringify(value) : data;
}

/** A whole chat completion (a server that ignored `stream: true`) as the stream it stands for. */
function completionAsStream(completion: Json, dialect?: TurnDialect): string {
  const frames: Json[] = [];
  const base = { id: completion.id ?? "chatcmpl-json", object: "chat.completion.chunk", created: completion.created ?? 0, model: completion.model ?? "" };
  const choices = Array.isArray(completion.choices) ? completion.choices.filter(isObject) : [];
  for (const choice of choices) {
    const message = isObject(choice.message) ? { ...choice.message } : {};
    if (dialect && typeof message.reasoning_content === "string") dialect.sendsReasoningContent = true;
    reasoningFromDetails(message);
    if (Array.isArray(message.tool_calls)) message.tool_calls = message.tool_calls.map((c, index) => (isObject(c) ? { index, ...c } : c));
    if (message.content === null) delete message.content;
    frames.push({ ...base, choices: [{ index: choice.index ?? 0, delta: message, finish_reason: null }] });
    frames.push({ ...base, choices: [{ index: choice.index ?? 0, delta: {}, finish_reason: choice.finish_reason ?? "stop" }] });
  }
  if (isObject(completion.usage)) frames.push({ ...base, choices: [], usage: completion.usage });
  return `${frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join("")}data: [DONE]\n\n`;
}

/** The body of a server-sent event stream, with each `data:` line normalized as it passes. */
function normalizeEventStream(body: ReadableStream<Uint8Array>, dialect?: TurnDialect): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let partial = "";
  const rewrite = (text: string) =>
    text
      .split("\n")
      .map((line) => (line.startsWith("data:") && line.slice(5).trim() !== "[DONE]" ? `data: ${normalizeFrame(line.slice(5).trim(), dialect)}` : line))
      .join("\n");
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const text = partial + decoder.decode(chunk, { stream: true });
        const cut = text.lastIndexOf("\n");
        partial = cut < 0 ? text : text.slice(cut + 1);
        if (cut >= 0) controller.enqueue(encoder.encode(rewrite(text.slice(0, cut + 1))));
      },
      flush(controller) {
        const rest = partial + decoder.decode();
        if (rest) controller.enqueue(encoder.encode(rewrite(rest)));
      },
    }),
  );
}

const jsonHeaders = (headers: Headers, type: string) => {
  const out = new Headers(headers);
  out.set("content-type", type);
  out.delete("content-length");
  out.delete("content-encoding");
  return out;
};

/**
 * A fetch for the OpenAI client that normalizes every server's answer: error bodies of any shape,
 * reasoning in any field, tool calls without ids, and a JSON completion where a stream was asked for;
 * with a turn's `dialect`, it also learns what the server wants given back and gives it.
 */
export function providerFetch(inner: typeof fetch = fetch, dialect?: TurnDialect): typeof fetch {
  return async (input, requestInit) => {
    const init = dialect && typeof requestInit?.body === "string" ? { ...requestInit, body: withReasoningBack(requestInit.body, dialect) } : requestInit;
    const response = await inner(input, init);
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("text/event-stream") && response.body) {
      return new Response(normalizeEventStream(response.body, dialect), { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    if (!type.includes("json")) return response;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    const asked = typeof init?.body === "string" && /"stream"\s*:\s*true/.test(init.body);
    const error = asErrorBody(body);
    if (error) return new Response(JSON.stringify(error), { status: response.ok ? 500 : response.status, statusText: response.statusText, headers: jsonHeaders(response.headers, "application/json") });
    if (response.ok && asked && isObject(body) && Array.isArray(body.choices)) {
      return new Response(completionAsStream(body, dialect), { status: 200, headers: jsonHeaders(response.headers, "text/event-stream") });
    }
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
