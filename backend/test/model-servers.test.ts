/**
 * The model servers users run, each streaming its own way (from each one's documentation), through
 * the real workbench: Ollama, LM Studio, vLLM, llama.cpp's server, DeepSeek, OpenRouter, OpenAI.
 * The scripted server plays each behaviour; the README's compatibility table lists what is covered.
 */
import { findBrowser } from "../src/browser/find-browser.js";
import type { ChatEvent } from "@mini-openclaw/protocol";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ChatRequestBody, messageText, type ModelReply } from "../test-support/scripted-model-server.js";
import { chat, fetchSession, sessionIdOf, startWorkbench, storedEvents, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const thoughts = (events: ChatEvent[]) => events.map((e) => (e.type === "thought" ? e.content : "")).join("");
const tokens = (events: ChatEvent[]) => events.map((e) => (e.type === "token" ? e.content : "")).join("");
const last = (events: ChatEvent[]) => events[events.length - 1];
const toolMessages = (body: ChatRequestBody) => body.messages.filter((m) => m.role === "tool");

describe("reasoning, wherever the server puts it, is a thought and never the answer", () => {
  it("delta.reasoning (Ollama's and LM Studio's OpenAI endpoints, newer vLLM)", async () => {
    wb = await startWorkbench({ script: [{ reasoning: "The user greets me. ", reasoningAs: "reasoning", content: "Hello!" }] });
    const events = await chat(wb, "hi");
    expect(thoughts(events)).toBe("The user greets me. ");
    expect(last(events)).toMatchObject({ type: "final", content: "Hello!" });
  });

  it("OpenRouter's reasoning with reasoning_details beside it: the text once", async () => {
    wb = await startWorkbench({ script: [{ reasoning: "Weighing two options.", reasoningAs: "openrouter", content: "Option A." }] });
    const events = await chat(wb, "which?");
    expect(thoughts(events)).toBe("Weighing two options.");
    expect(last(events)).toMatchObject({ type: "final", content: "Option A." });
  });

  it("<think> tags in the content (Qwen3 or a DeepSeek-R1 distill without a reasoning parser), split across chunks", async () => {
    wb = await startWorkbench({
      script: [
        { content: "<think>\nThe user wants a number.\n</think>\n\nIt is 42.", chunkChars: 3 },
        { content: "<think>Easy.</think>Still 42.", chunkChars: 4 },
      ],
    });
    const events = await chat(wb, "a number?");
    expect(thoughts(events)).toBe("\nThe user wants a number.\n");
    expect(tokens(events)).toBe("\n\nIt is 42.");
    expect(last(events)).toMatchObject({ type: "final", content: "\n\nIt is 42." });
    const stored = storedEvents((await fetchSession(wb.url, sessionIdOf(events))).entries);
    expect(JSON.stringify(stored.filter((e) => e.type !== "thought"))).not.toContain("think>");
    const next = await chat(wb, "again?", sessionIdOf(events));
    expect(last(next)).toMatchObject({ type: "final", content: "Still 42." });
    // The reasoning is not sent back as if it were the answer.
    expect(JSON.stringify(wb.model.requests[1].body.messages)).not.toContain("The user wants a number");
  });
});

describe("think_tags false (as detected for OpenAI): the content is the answer as written", () => {
  it("an answer that starts with <think> keeps it, and no thought is made", async () => {
    const root = await mkdtemp(join(tmpdir(), "moc-root-"));
    await writeFile(join(root, "MODELS.json"), JSON.stringify({ profiles: { default: { compat: { think_tags: false } } } }));
    wb = await startWorkbench({ script: [{ content: "<think> is the tag Qwen3 writes its reasoning in.", chunkChars: 3 }], dataRoot: root });
    const events = await chat(wb, "which tag?");
    expect(thoughts(events)).toBe("");
    expect(last(events)).toMatchObject({ type: "final", content: "<think> is the tag Qwen3 writes its reasoning in." });
  });
});

describe("a chat template that opened <think> itself: only </think> shows", () => {
  it("the text streamed before it turns into a thought, and the model is never sent it as its answer", async () => {
    wb = await startWorkbench({
      script: [
        { content: "The user wants a number.\nForty-two will do.\n</think>\n\nIt is 42.", chunkChars: 5 },
        { content: "Still 42." },
      ],
    });
    const events = await chat(wb, "a number?");
    const late = events.find((e) => e.type === "late_thought");
    // It names the text block that turns into a thought.
    expect(late).toEqual({ type: "late_thought", chars: expect.any(Number), block: expect.any(String) });
    // What the Stage shows as the answer: the text before the late thought, less what it took back, then the rest.
    const at = events.indexOf(late!);
    const before = tokens(events.slice(0, at));
    const shown = before.slice(0, before.length - (late?.type === "late_thought" ? late.chars : 0)) + tokens(events.slice(at));
    expect(shown).toBe("\n\nIt is 42.");
    expect(before).toBe("The user wants a number.\nForty-two will do.\n".slice(0, before.length));
    expect(last(events)).toMatchObject({ type: "final", content: "\n\nIt is 42." });
    await chat(wb, "again?", sessionIdOf(events));
    expect(JSON.stringify(wb.model.requests[1].body.messages)).not.toContain("Forty-two will do");
    expect(JSON.stringify(wb.model.requests[1].body.messages)).toContain("It is 42.");
  });
});

describe("tool calls as servers send them", () => {
  for (const ids of ["missing", "empty"] as const) {
    it(`an id ${ids === "missing" ? "left out" : "sent empty"} (as some servers do) gets a generated one, and the result pairs with it`, async () => {
      wb = await startWorkbench({
        script: [{ toolCallIds: ids, toolCalls: [{ name: "read_file", args: { path: "memory/MEMORY.md" } }] }, { content: "Read it." }],
      });
      const events = await chat(wb, "read memory");
      const call = events.find((e) => e.type === "tool_call");
      expect(call?.type === "tool_call" && call.id).toMatch(/^call_\S+/);
      expect(events.find((e) => e.type === "tool_result")).toMatchObject({ ok: true });
      expect(last(events)).toMatchObject({ type: "final", content: "Read it." });
      const second = wb.model.requests[1].body;
      const assistant = second.messages.find((m) => m.role === "assistant");
      expect(assistant?.tool_calls?.[0].id).toBe(call?.type === "tool_call" && call.id);
      expect(toolMessages(second)[0].tool_call_id).toBe(call?.type === "tool_call" && call.id);
    });
  }
});

/**
 * DeepSeek's thinking mode with tools, as its documentation describes it (api-docs.deepseek.com, "Thinking
 * Mode"): an assistant message that called tools must come back with its `reasoning_content` in every later
 * request, in its own turn and in all the turns after it, or the request is refused with a 400 (between two
 * user messages with no tool call, the reasoning need not come back and is ignored).
 */
function deepSeekThinking(script: (body: ChatRequestBody, index: number) => ModelReply): (body: ChatRequestBody, index: number) => ModelReply {
  return (body, index) => {
    const missing = body.messages.findIndex((m) => m.role === "assistant" && m.tool_calls?.length && typeof m.reasoning_content !== "string");
    if (missing >= 0) {
      return { kind: "error", status: 400, message: `Missing \`reasoning_content\` field in the assistant message at message index ${missing}.` };
    }
    return script(body, index);
  };
}

describe("reasoning sent back where the server requires it", () => {
  const toolTurn = (reasoningAs: "reasoning_content" | "reasoning") => (body: ChatRequestBody) =>
    toolMessages(body).length === 0
      ? { reasoning: "I need the memory file.", reasoningAs, toolCalls: [{ name: "read_file", args: { path: "memory/MEMORY.md" } }] }
      : { reasoning: "Now I can answer.", reasoningAs, content: "Memory read." };

  /** A data root whose default profile declares these quirks (as MODELS.json's `compat`). */
  const rootWithCompat = async (compat: Record<string, unknown>) => {
    const root = await mkdtemp(join(tmpdir(), "moc-root-"));
    await writeFile(join(root, "MODELS.json"), JSON.stringify({ profiles: { default: { compat } } }));
    return root;
  };

  it("DeepSeek thinking with tools (reasoning_back tool_steps, as detected for api.deepseek.com): each tool step's reasoning_content goes back in its turn and in every later one", async () => {
    wb = await startWorkbench({ script: deepSeekThinking(toolTurn("reasoning_content")), dataRoot: await rootWithCompat({ reasoning_back: "tool_steps" }) });
    const events = await chat(wb, "read memory");
    expect(last(events)).toMatchObject({ type: "final", content: "Memory read." });
    const assistant = wb.model.requests[1].body.messages.find((m) => m.role === "assistant");
    expect(assistant?.reasoning_content).toBe("I need the memory file.");
    // The next turn's first request, read from the session file, carries it too: without it DeepSeek answers 400.
    const next = await chat(wb, "and again", sessionIdOf(events));
    expect(last(next)).toMatchObject({ type: "final", content: "Memory read." });
    const earlier = wb.model.requests[2].body.messages.filter((m) => m.role === "assistant" && m.tool_calls?.length);
    expect(earlier.map((m) => m.reasoning_content)).toEqual(["I need the memory file."]);
    // An answer's own reasoning (no tool call) is not sent back.
    expect(JSON.stringify(wb.model.requests[2].body.messages)).not.toContain("Now I can answer.");
  });

  it("auto (an unknown server): given back once the server has streamed reasoning_content in the turn", async () => {
    wb = await startWorkbench({ script: toolTurn("reasoning_content") });
    const events = await chat(wb, "read memory");
    expect(last(events)).toMatchObject({ type: "final", content: "Memory read." });
    expect(wb.model.requests[1].body.messages.find((m) => m.role === "assistant")?.reasoning_content).toBe("I need the memory file.");
    // A later turn's first request: the server has not said yet that it sends reasoning_content.
    await chat(wb, "and again", sessionIdOf(events));
    expect(JSON.stringify(wb.model.requests[2].body.messages)).not.toContain("reasoning_content");
  });

  it("reasoning_back never: a server that streams reasoning_content is not sent it", async () => {
    wb = await startWorkbench({ script: toolTurn("reasoning_content"), dataRoot: await rootWithCompat({ reasoning_back: "never" }) });
    const events = await chat(wb, "read memory");
    expect(last(events)).toMatchObject({ type: "final", content: "Memory read." });
    expect(JSON.stringify(wb.model.requests[1].body.messages)).not.toContain("reasoning_content");
  });

  it("a server that never sent reasoning_content is never sent it", async () => {
    wb = await startWorkbench({ script: toolTurn("reasoning") });
    const events = await chat(wb, "read memory");
    expect(last(events)).toMatchObject({ type: "final", content: "Memory read." });
    expect(JSON.stringify(wb.model.requests[1].body.messages)).not.toContain("reasoning_content");
  });
});

describe("the token limit (finish_reason: length)", () => {
  it("a cut answer is marked cut, live and in the session", async () => {
    wb = await startWorkbench({ script: [{ content: "A long answer that goes on and on.", cutAtChars: 14 }] });
    const events = await chat(wb, "talk");
    expect(last(events)).toMatchObject({ type: "final", content: "A long answer ", finish_reason: "length" });
    const stored = storedEvents((await fetchSession(wb.url, sessionIdOf(events))).entries);
    expect(stored.at(-1)).toMatchObject({ type: "final", finish_reason: "length" });
  });

  it("a tool call whose arguments were cut is never run; the model and the user are told", async () => {
    wb = await startWorkbench({
      env: { SANDBOX: "off" },
      script: [{ toolCalls: [{ name: "terminal", args: { command: "echo one; echo two > memory/two.txt" } }], cutAtChars: 20 }, { content: "Understood." }],
    });
    const events = await chat(wb, "run it");
    const result = events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ ok: false, output: expect.stringMatching(/cut off by the token limit/) });
    expect(result?.type === "tool_result" && result.details).toMatchObject({ cut_by_token_limit: true });
    expect(messageText(toolMessages(wb.model.requests[1].body)[0].content)).toMatch(/cut off by the token limit/);
    expect(last(events)).toMatchObject({ type: "final", content: "Understood." });
  });
});

describe("errors carry the server's own words and a fitting code", () => {
  it("vLLM's flat 400 body", async () => {
    const body = { object: "error", message: "This model's maximum context length is 4096 tokens.", type: "BadRequestError", param: null, code: 400 };
    wb = await startWorkbench({ script: [{ kind: "error", status: 400, message: "", body }] });
    const events = await chat(wb, "hi");
    expect(last(events)).toMatchObject({ type: "error", code: "context_too_long", message: expect.stringContaining("maximum context length is 4096") });
  });

  it("429 is rate_limited, with the server's words", async () => {
    wb = await startWorkbench({ env: { MODEL_MAX_RETRIES: "0" }, script: [{ kind: "error", status: 429, message: "Rate limit reached for requests" }] });
    const events = await chat(wb, "hi");
    expect(last(events)).toMatchObject({ type: "error", code: "rate_limited", message: expect.stringContaining("Rate limit reached") });
  });

  it("an error frame mid-stream (OpenRouter: {error: {...}}) is a model error with its message, not an internal failure", async () => {
    const frame = { id: "gen-1", object: "chat.completion.chunk", error: { code: 502, message: "Provider returned error: upstream overloaded" }, choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }] };
    wb = await startWorkbench({ script: [{ kind: "error_frame", content: "Partial answer here", afterChunks: 2, frame }] });
    const events = await chat(wb, "hi");
    expect(last(events)).toMatchObject({ type: "error", code: "model_error", message: expect.stringContaining("upstream overloaded") });
  });

  it("a flat error object mid-stream (vLLM) ends the turn as an error, not as a finished answer", async () => {
    const frame = { object: "error", message: "CUDA out of memory", type: "InternalServerError", param: null, code: 500 };
    wb = await startWorkbench({ script: [{ kind: "error_frame", content: "Partial answer here", afterChunks: 2, frame }] });
    const events = await chat(wb, "hi");
    expect(last(events)).toMatchObject({ type: "error", code: "model_error", message: expect.stringContaining("CUDA out of memory") });
  });

  it("a server that ignores stream: true and answers with one JSON completion: its answer is taken", async () => {
    wb = await startWorkbench({
      script: [
        { ignoreStream: true, reasoning: "Need the file.", toolCalls: [{ name: "read_file", args: { path: "memory/MEMORY.md" } }] },
        { ignoreStream: true, content: "Done, from JSON." },
      ],
    });
    const events = await chat(wb, "hi");
    expect(thoughts(events)).toBe("Need the file.");
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ ok: true });
    expect(last(events)).toMatchObject({ type: "final", content: "Done, from JSON." });
  });
});

describe("a model that takes no tools", () => {
  it("is named as such (tools_unsupported), and the session can go on without tools, which it remembers", async () => {
    // Ollama's answer for a model without tool support, as a 400 with its own words.
    wb = await startWorkbench({
      script: (body) => (body.tools?.length ? { kind: "error", status: 400, message: "registry.ollama.ai/library/gemma:2b does not support tools" } : { content: "Plain chat works." }),
    });
    const refused = await chat(wb, "hi");
    expect(last(refused)).toMatchObject({ type: "error", code: "tools_unsupported", message: expect.stringContaining("does not support tools") });
    const response = await fetch(`${wb.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "hi again", session_id: sessionIdOf(refused), stream: false, tools: false }),
    });
    expect(((await response.json()) as { content: string }).content).toBe("Plain chat works.");
    expect(wb.model.requests.at(-1)!.body.tools).toBeUndefined();
    const session = await fetchSession(wb.url, sessionIdOf(refused));
    expect(session.entries.filter((e) => e.type === "user").at(-1)).toMatchObject({ content: "hi again", tools: false });
  });
});

describe("tool schemas", () => {
  it("are plain JSON Schema: no $schema, no integer bounds at the edge of what JavaScript can count", async () => {
    wb = await startWorkbench({ script: [{ content: "ok" }] });
    await chat(wb, "hi");
    const tools = JSON.stringify(wb.model.requests[0].body.tools);
    expect(tools).not.toContain("$schema");
    expect(tools).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(wb.model.requests[0].body.tools?.map((t) => t.function.name)).toEqual(["read_file", "terminal", "python_repl", "fetch_url", "search_knowledge_base", "memory_search", ...(findBrowser(null) ? ["browser"] : []), "delegate", "schedule"]);
  });
});
