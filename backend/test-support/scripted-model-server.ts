/**
 * A scripted OpenAI-compatible model server for tests and benchmarks, over real HTTP.
 *
 * Each POST /v1/chat/completions is recorded and answered by the script, which sees the
 * parsed request and returns what the "model" does: stream text, reasoning deltas and tool
 * calls, fail with a status, hang, cut the stream mid-way, or send garbage.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedToolCall {
  id?: string;
  name: string;
  args: unknown;
}

export type ModelReply =
  | {
      kind?: "reply";
      content?: string;
      /** Streamed as `delta.reasoning_content` (DeepSeek-style servers) unless `reasoningAs` says otherwise. */
      reasoning?: string;
      /**
       * The delta field reasoning streams in: `reasoning` (Ollama's and LM Studio's OpenAI endpoints, newer vLLM),
       * `openrouter` (`reasoning` and, with the same text, `reasoning_details: [{type: "reasoning.text"}]`).
       */
      reasoningAs?: "reasoning_content" | "reasoning" | "openrouter";
      /** Tool-call ids as some servers send them: no `id` field at all, or `""`. */
      toolCallIds?: "missing" | "empty";
      /** The token limit: what the reply would say (text, then tool-call arguments) stops after this many characters, with finish_reason "length". */
      cutAtChars?: number;
      /** Ignore `stream: true` and answer with one JSON completion. */
      ignoreStream?: boolean;
      toolCalls?: ScriptedToolCall[];
      usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
      /** Delay before the response headers. */
      firstByteDelayMs?: number;
      /** Delay between streamed chunks. */
      chunkDelayMs?: number;
      /** Characters per streamed content chunk (default: one word at a time). */
      chunkChars?: number;
    }
  /** An HTTP error; `body`: the exact JSON body (default OpenAI's `{error: {message, type, code}}`). */
  | { kind: "error"; status: number; message: string; body?: unknown }
  /** A 200 stream that sends `content` for `afterChunks` chunks, then `frame` as a data frame, then ends. */
  | { kind: "error_frame"; content: string; afterChunks: number; frame: unknown }
  | { kind: "hang" }
  | { kind: "cut"; content: string; afterChunks: number }
  | { kind: "stall"; content: string; afterChunks: number }
  | { kind: "garbage" };

export interface RecordedRequest {
  body: ChatRequestBody;
  headers: IncomingMessage["headers"];
  at: number;
  /** True when the client closed the connection before the reply was complete. */
  closedEarly: boolean;
  /** performance.now() when the first content token was written, for overhead measurements. */
  firstTokenAt?: number;
}

export interface ChatRequestBody {
  model: string;
  stream?: boolean;
  messages: Array<{
    role: string;
    content: unknown;
    tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
    tool_call_id?: string;
    /** DeepSeek-style: the reasoning of an assistant message, sent back. */
    reasoning_content?: string;
  }>;
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  [key: string]: unknown;
}

export type ModelScript = (request: ChatRequestBody, index: number) => ModelReply;

export interface ScriptedModelServer {
  /** Base URL to use as OPENAI_BASE_URL (ends in /v1). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Every input text sent to /v1/embeddings, in order. */
  embeddedTexts: string[];
  /** The Authorization header of each /v1/embeddings request ("" for none), in order. */
  embeddingAuth: string[];
  /** When set, /v1/embeddings answers with this HTTP status. */
  failEmbeddings: number | null;
  /** Replace the script between tests. */
  setScript(script: ModelScript | ModelReply[]): void;
  close(): Promise<void>;
}

/** Text of a message's content, whether a string or content blocks. */
export function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((block) => (typeof block === "string" ? block : typeof block?.text === "string" ? block.text : ""))
      .join("");
  }
  return "";
}

export function lastMessage(body: ChatRequestBody) {
  return body.messages[body.messages.length - 1];
}

export function systemPromptOf(body: ChatRequestBody): string {
  const system = body.messages.find((m) => m.role === "system");
  return system ? messageText(system.content) : "";
}

function toScript(script: ModelScript | ModelReply[]): ModelScript {
  if (typeof script === "function") return script;
  const queue = [...script];
  return () => queue.shift() ?? { content: "(script exhausted)" };
}

export async function startScriptedModelServer(
  initial: ModelScript | ModelReply[] = [],
): Promise<ScriptedModelServer> {
  let script = toScript(initial);
  const requests: RecordedRequest[] = [];
  const embeddings = { texts: [] as string[], auth: [] as string[], fail: null as number | null };
  const sockets = new Set<import("node:net").Socket>();

  const server: Server = createServer(async (req, res) => {
    try {
      await handle(req, res);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(err) } }));
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = req.url ?? "";
    if (req.method === "GET" && url.endsWith("/models")) {
      json(res, 200, { object: "list", data: [{ id: "scripted-model", object: "model" }] });
      return;
    }
    if (req.method === "POST" && url.endsWith("/embeddings")) {
      const body = JSON.parse(await readBody(req)) as { input: string | string[] };
      embeddings.auth.push(String(req.headers.authorization ?? ""));
      if (embeddings.fail) return json(res, embeddings.fail, { error: { message: "scripted embedding failure" } });
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      embeddings.texts.push(...inputs);
      json(res, 200, { object: "list", data: inputs.map((text, index) => ({ object: "embedding", index, embedding: bagOfWords(text) })) });
      return;
    }
    if (req.method !== "POST" || !url.endsWith("/chat/completions")) {
      json(res, 404, { error: { message: `no route ${req.method} ${url}` } });
      return;
    }
    const raw = await readBody(req);
    const body = JSON.parse(raw) as ChatRequestBody;
    const index = requests.length;
    const record: RecordedRequest = { body, headers: req.headers, at: Date.now(), closedEarly: false };
    requests.push(record);
    res.on("close", () => {
      if (!res.writableFinished) record.closedEarly = true;
    });
    const reply = script(body, index);
    await answer(body, reply, res, record);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    embeddedTexts: embeddings.texts,
    embeddingAuth: embeddings.auth,
    get failEmbeddings() {
      return embeddings.fail;
    },
    set failEmbeddings(status: number | null) {
      embeddings.fail = status;
    },
    setScript(next) {
      script = toScript(next);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A deterministic 64-dimensional "embedding": hashed lower-case words. */
function bagOfWords(text: string): number[] {
  const vector = new Array(64).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let hash = 7;
    for (const c of word) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
    vector[hash % 64] += 1;
  }
  return vector;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function splitText(text: string, chunkChars?: number): string[] {
  if (!text) return [];
  if (chunkChars && chunkChars > 0) {
    const out: string[] = [];
    for (let i = 0; i < text.length; i += chunkChars) out.push(text.slice(i, i + chunkChars));
    return out;
  }
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

let callCounter = 0;

async function answer(body: ChatRequestBody, reply: ModelReply, res: ServerResponse, record?: RecordedRequest) {
  const kind = reply.kind ?? "reply";
  if (kind === "hang") return; // never answer; the client must time out
  if (reply.kind === "error") {
    json(res, reply.status, reply.body ?? { error: { message: reply.message, type: "scripted_error", code: reply.status } });
    return;
  }
  const id = `chatcmpl-${Date.now()}`;
  const frame = (delta: Record<string, unknown>, finish: string | null = null, extra: object = {}) =>
    `data: ${JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    })}\n\n`;

  if (reply.kind === "garbage") {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("data: {not json at all\n\n");
    res.write("data: ]]]\n\n");
    res.end();
    return;
  }
  if (reply.kind === "error_frame") {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(frame({ role: "assistant", content: "" }));
    for (const piece of splitText(reply.content).slice(0, reply.afterChunks)) res.write(frame({ content: piece }));
    res.write(`data: ${JSON.stringify(reply.frame)}\n\n`);
    res.end();
    return;
  }
  if (reply.kind === "cut" || reply.kind === "stall") {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(frame({ role: "assistant", content: "" }));
    for (const piece of splitText(reply.content).slice(0, reply.afterChunks)) res.write(frame({ content: piece }));
    if (reply.kind === "cut") {
      // Let the frames reach the client first: destroy() discards unflushed writes.
      await sleep(100);
      res.socket?.destroy(); // the connection drops mid-stream
    }
    return; // stall: keep the socket open and silent
  }
  if (reply.kind !== undefined && reply.kind !== "reply") return;

  const r = reply as Extract<ModelReply, { kind?: "reply" }>;
  if (r.firstByteDelayMs) await sleep(r.firstByteDelayMs);
  let toolCalls = (r.toolCalls ?? []).map((call) => ({
    id: call.id ?? `call_${++callCounter}`,
    name: call.name,
    arguments: JSON.stringify(call.args),
  }));
  let content = r.content;
  let finish = toolCalls.length ? "tool_calls" : "stop";
  if (r.cutAtChars !== undefined) {
    // The token limit: the text first, then the calls' arguments, stop where the budget runs out.
    let left = r.cutAtChars;
    content = content?.slice(0, left);
    left -= content?.length ?? 0;
    toolCalls = toolCalls.flatMap((call) => {
      if (left <= 0) return [];
      const args = call.arguments.slice(0, left);
      left -= args.length;
      return [{ ...call, arguments: args }];
    });
    finish = "length";
  }
  const idField = (callId: string) => (r.toolCallIds === "missing" ? {} : { id: r.toolCallIds === "empty" ? "" : callId });
  // Without a scripted figure, usage as a server counts it: what the request and the reply hold (about 4 characters a token).
  const written = `${r.reasoning ?? ""}${r.content ?? ""}${JSON.stringify(r.toolCalls ?? [])}`;
  const usage = r.usage ?? { prompt_tokens: Math.ceil(JSON.stringify({ messages: body.messages, tools: body.tools ?? [] }).length / 4), completion_tokens: Math.max(1, Math.ceil(written.length / 4)) };
  const usageBody = {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
  };

  if (!body.stream || r.ignoreStream) {
    json(res, 200, {
      id,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: content ?? (toolCalls.length ? null : ""),
            ...(r.reasoning ? { [r.reasoningAs === "reasoning" || r.reasoningAs === "openrouter" ? "reasoning" : "reasoning_content"]: r.reasoning } : {}),
            ...(toolCalls.length
              ? { tool_calls: toolCalls.map((c) => ({ ...idField(c.id), type: "function", function: { name: c.name, arguments: c.arguments } })) }
              : {}),
          },
          finish_reason: finish,
        },
      ],
      usage: usageBody,
    });
    return;
  }

  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const write = async (data: string) => {
    res.write(data);
    if (r.chunkDelayMs) await sleep(r.chunkDelayMs);
  };
  await write(frame({ role: "assistant", content: "" }));
  const reasoningDelta = (piece: string) =>
    r.reasoningAs === "reasoning"
      ? { reasoning: piece }
      : r.reasoningAs === "openrouter"
        ? { reasoning: piece, reasoning_details: [{ type: "reasoning.text", text: piece, format: "unknown", index: 0 }] }
        : { reasoning_content: piece };
  for (const piece of splitText(r.reasoning ?? "")) await write(frame(reasoningDelta(piece)));
  for (const piece of splitText(content ?? "", r.chunkChars)) {
    if (record && record.firstTokenAt === undefined) record.firstTokenAt = performance.now();
    await write(frame({ content: piece }));
  }
  for (const [index, call] of toolCalls.entries()) {
    await write(frame({ tool_calls: [{ index, ...idField(call.id), type: "function", function: { name: call.name, arguments: "" } }] }));
    const half = Math.ceil(call.arguments.length / 2);
    for (const part of [call.arguments.slice(0, half), call.arguments.slice(half)]) {
      await write(frame({ tool_calls: [{ index, function: { arguments: part } }] }));
    }
  }
  await write(frame({}, finish));
  const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
  if (streamOptions?.include_usage) {
    res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", model: body.model, choices: [], usage: usageBody })}\n\n`);
  }
  res.end("data: [DONE]\n\n");
}
