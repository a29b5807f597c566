/**
 * One truth per turn: what streamed is what the session stores, what the Stage replays and what the
 * model is sent next, and a session written before format version 2 still opens, replays and goes on.
 */
import { copyFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChatEvent, StoredEvent } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { joinTextRuns } from "../src/sessions/join-text-events.js";
import { type ChatRequestBody, lastMessage, messageText, systemPromptOf } from "../test-support/scripted-model-server.js";
import { chat, fetchSession, sessionIdOf, startWorkbench, storedEvents, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const isResearcher = (body: ChatRequestBody) => systemPromptOf(body).startsWith('You are the "researcher" sub-agent');
const toolResults = (body: ChatRequestBody) => body.messages.filter((m) => m.role === "tool").length;
const usage = { prompt_tokens: 120, completion_tokens: 30, cached_tokens: 64 };

/** Thought, text, two tool calls with a delegation among them, a skill read, usage on every request, an answer. */
function everythingScript(body: ChatRequestBody) {
  if (isResearcher(body)) {
    return toolResults(body) === 0
      ? { reasoning: "Look in memory.", toolCalls: [{ id: "call_sub", name: "read_file", args: { path: "memory/MEMORY.md" } }], usage }
      : { content: "Memory holds the user's notes.", usage, chunkDelayMs: 2 };
  }
  if (messageText(lastMessage(body).content) === "and then?") return { content: "Then we rest.", usage };
  const results = toolResults(body);
  if (results === 0) {
    return {
      reasoning: "Plan: read memory and ask the researcher at once.",
      content: "Let me check two things.",
      toolCalls: [
        { id: "call_memory", name: "read_file", args: { path: "memory/MEMORY.md" } },
        { id: "call_research", name: "delegate", args: { agent: "researcher", task: "What is in memory?" } },
      ],
      usage,
      chunkDelayMs: 2,
    };
  }
  if (results === 2) return { toolCalls: [{ id: "call_skill", name: "read_file", args: { path: "skills/get_weather/SKILL.md" } }], usage };
  return { reasoning: "All in hand.", content: "All done: memory holds notes, and the weather skill is loaded.", usage, chunkDelayMs: 2 };
}

describe("a turn is stored once, as it streamed", () => {
  it("replays from the session as the events that streamed, and the next request continues exactly the last one", async () => {
    wb = await startWorkbench({ script: everythingScript });
    const events = await chat(wb, "do it all");
    const streamed = events.filter((e): e is StoredEvent => e.type !== "session");
    const kinds = new Set(streamed.map((e) => e.type));
    for (const kind of ["thought", "token", "tool_call", "tool_result", "skill", "delegate", "usage", "final"]) expect(kinds).toContain(kind);
    expect(streamed.filter((e) => e.type === "tool_call")).toHaveLength(3);

    const session = await fetchSession(wb.url, sessionIdOf(events));
    // The stream's chunking is the provider's: pieces of text that streamed back to back are stored joined.
    expect(joinTextRuns(storedEvents(session.entries))).toEqual(joinTextRuns(streamed));
    expect(session.running).toBe(false);

    const before = wb.model.requests.filter((r) => !isResearcher(r.body)).at(-1)!.body;
    const final = streamed.at(-1) as Extract<ChatEvent, { type: "final" }>;
    await chat(wb, "and then?", sessionIdOf(events));
    const next = wb.model.requests.at(-1)!.body;
    // What the model is sent next is what it was sent last, plus its answer and the new message: nothing rebuilt
    // differently. Only the reasoning a DeepSeek-style server wants back within a turn is not carried into the next.
    const withinTurn = before.messages.map(({ reasoning_content: _dropped, ...m }) => m);
    expect(before.messages.some((m) => m.reasoning_content)).toBe(true);
    expect(next.messages).toEqual([...withinTurn, { role: "assistant", content: final.content }, { role: "user", content: "and then?" }]);
    expect(next.tools).toEqual(before.tools);
  });
});

describe("a session file written by main before format version 2", () => {
  const fixture = join(import.meta.dirname, "fixtures/v1-session.jsonl");
  const id = "20261123-170244-v1abcd";

  async function startWithFixture() {
    wb = await startWorkbench({ script: (body) => ({ content: `Again: ${body.messages.length} messages.` }) });
    await copyFile(fixture, join(wb.dataRoot, "sessions", `${id}.jsonl`));
  }

  it("opens and replays: the sub-agent's trace, the skill and the cut answer are there", async () => {
    await startWithFixture();
    const session = await fetchSession(wb!.url, id);
    expect(session).toMatchObject({ id, title: "weather for Paris, and ask the researcher", message_count: 5, running: false });
    const stored = storedEvents(session.entries);
    expect(stored.filter((e) => e.type === "delegate").length).toBeGreaterThan(3);
    expect(stored).toContainEqual({ type: "skill", name: "get_weather", location: "./skills/get_weather/SKILL.md" });
    expect(stored.at(-1)).toMatchObject({ type: "error", code: "model_bad_response" });
  });

  it("takes a new turn, sending the model the history today's main sent for it", async () => {
    await startWithFixture();
    const expected = JSON.parse(await readFile(join(import.meta.dirname, "fixtures/v1-session.next-request.json"), "utf8")) as Pick<ChatRequestBody, "messages" | "tools">;
    const events = await chat(wb!, "again", id);
    expect(events.at(-1)).toMatchObject({ type: "final" });
    const sent = wb!.model.requests.at(-1)!.body;
    expect(sent.messages).toEqual(expected.messages);
    // The tool definitions too, but for what issue 14 took out on purpose: `$schema`, and integer bounds at ±(2^53-1).
    const plain = (value: unknown): unknown =>
      JSON.parse(JSON.stringify(value, (key, v) => (key === "$schema" || ((key === "maximum" || key === "minimum") && Math.abs(v) === Number.MAX_SAFE_INTEGER) ? undefined : v)));
    // And for the tools added since, each offered where it can run (`browser` with a Chromium installed).
    const since = new Set(["browser"]);
    expect(sent.tools!.filter((t) => !since.has(t.function.name))).toEqual(plain(expected.tools));
    // The file goes on in version 2 after a header; the old lines are untouched.
    const text = await readFile(join(wb!.dataRoot, "sessions", `${id}.jsonl`), "utf8");
    expect(text.startsWith(await readFile(fixture, "utf8"))).toBe(true);
    const added = text.slice((await readFile(fixture, "utf8")).length).split("\n").filter(Boolean).map((l) => JSON.parse(l).type);
    expect(added.slice(0, 2)).toEqual(["header", "user"]);
    const reopened = await fetchSession(wb!.url, id);
    expect(storedEvents(reopened.entries).at(-1)).toMatchObject({ type: "final", content: expect.stringContaining("Again:") });
  });
});
