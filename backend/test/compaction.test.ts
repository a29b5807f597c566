import type { CompactReply, SessionDetail } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { type ChatRequestBody, messageText, systemPromptOf } from "../test-support/scripted-model-server.js";
import { chat, postJson, sessionIdOf, uiEvents, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const isCompactionRequest = (body: ChatRequestBody) => systemPromptOf(body).startsWith("You compact a conversation");
const summarizer = (summary: string) => (body: ChatRequestBody) => (isCompactionRequest(body) ? { content: summary } : { content: "ok" });
const allText = (body: ChatRequestBody) => body.messages.map((m) => messageText(m.content)).join("\n---\n");

describe("context compaction", () => {
  it("after a forced compaction the next request still holds the system prompt and the loaded skill; the file keeps everything", async () => {
    wb = await startWorkbench({ script: summarizer("The user wants the weather in Paris; it was 13.7 °C.") });
    const id = sessionIdOf(await chat(wb, "/get_weather Paris"));
    await chat(wb, "what about humidity?", id);
    const before = wb.model.requests[1].body;

    const response = await postJson(`${wb.url}/api/sessions/${id}/compact`, {});
    expect(response.status).toBe(200);
    const reply = (await response.json()) as CompactReply;
    expect(reply).toMatchObject({ compacted: true, entry: { type: "compaction", covers_turns: 2, forced: true } });
    expect(reply.entry?.skills).toEqual([expect.objectContaining({ name: "get_weather", content: expect.stringContaining("the place asked for is: Paris") })]);
    const summaryRequest = wb.model.requests[2].body;
    expect(isCompactionRequest(summaryRequest)).toBe(true);
    expect(allText(summaryRequest)).toContain("what about humidity?");

    await chat(wb, "and tomorrow?", id);
    const after = wb.model.requests[3].body;
    expect(systemPromptOf(after)).toBe(systemPromptOf(before));
    const text = allText(after);
    expect(text).toContain("The user wants the weather in Paris; it was 13.7 °C.");
    expect(text).toContain('<skill name="get_weather" location="./skills/get_weather/SKILL.md">');
    expect(text).toContain("the place asked for is: Paris");
    expect(after.messages.map((m) => messageText(m.content))).not.toContain("what about humidity?");
    expect(messageText(after.messages[after.messages.length - 1].content)).toBe("and tomorrow?");

    const session = (await (await fetch(`${wb.url}/api/sessions/${id}`)).json()) as SessionDetail;
    expect(session.entries.filter((e) => e.type === "user").map((e) => e.content)).toEqual(["/get_weather Paris", "what about humidity?", "and tomorrow?"]);
    expect(session.entries.filter((e) => e.type === "compaction")).toHaveLength(1);
  });

  it("a session over its context budget compacts older turns by itself, keeps the last two, and streams the summary", async () => {
    wb = await startWorkbench({ script: summarizer("Turn one was a long note about fermentation.") });
    const id = sessionIdOf(await chat(wb, `Remember this long note: ${"fermentation ".repeat(800)}`));
    await chat(wb, "second", id);
    await chat(wb, "third", id);
    const systemTokens = Math.ceil(systemPromptOf(wb.model.requests[0].body).length / 4);
    wb.config.limits.contextBudgetTokens = systemTokens + 1_000; // the long note alone is ~2,600 tokens

    const events = await chat(wb, "fourth", id);
    expect(events).toContainEqual({ type: "compaction", turns: 1, summary: "Turn one was a long note about fermentation.", skills: [], forced: false });
    expect(events[events.length - 1]).toMatchObject({ type: "final" });
    const sent = wb.model.requests[wb.model.requests.length - 1].body;
    expect(isCompactionRequest(sent)).toBe(false);
    expect(allText(sent)).not.toContain("fermentation fermentation");
    expect(sent.messages.map((m) => messageText(m.content)).slice(-5)).toEqual(["second", "ok", "third", "ok", "fourth"]);

    const session = (await (await fetch(`${wb.url}/api/sessions/${id}`)).json()) as SessionDetail;
    const types = session.entries.map((e) => e.type);
    // Written in the turn it happened in, after that turn's message.
    expect(types.indexOf("compaction")).toBe(types.lastIndexOf("user") + 1);
    expect(session.entries.find((e) => e.type === "user")?.content).toContain("fermentation fermentation");
  });

  it("a failing summary leaves the session as it was: a clear 502 when forced, a warning toast and a normal turn when automatic", async () => {
    wb = await startWorkbench({
      script: (body) => (isCompactionRequest(body) ? { kind: "error", status: 500, message: "summarizer down" } : { content: "ok" }),
    });
    const id = sessionIdOf(await chat(wb, "one"));
    await chat(wb, "two", id);
    const forced = await postJson(`${wb.url}/api/sessions/${id}/compact`, {});
    expect(forced.status).toBe(502);
    expect(((await forced.json()) as { error: string }).error).toMatch(/^Compaction failed: .*summarizer down/);

    const controller = new AbortController();
    const stream = await fetch(`${wb.url}/api/events`, { signal: controller.signal });
    const seen: unknown[] = [];
    const reading = (async () => {
      try {
        for await (const event of uiEvents(stream)) seen.push(event);
      } catch {
        // aborted at the end
      }
    })();
    wb.config.limits.contextBudgetTokens = 10;
    wb.config.limits.compactKeepTurns = 1;
    const events = await chat(wb, "three", id);
    expect(events[events.length - 1]).toMatchObject({ type: "final", content: "ok" });
    await expect.poll(() => seen).toContainEqual(expect.objectContaining({ type: "toast", level: "warning", message: expect.stringMatching(/could not be compacted/), notice: expect.objectContaining({ kind: "compaction_failed", detail: expect.any(String) }) }));
    controller.abort();
    await reading;
    const session = (await (await fetch(`${wb.url}/api/sessions/${id}`)).json()) as SessionDetail;
    expect(session.entries.some((e) => e.type === "compaction")).toBe(false);
  });

  it("refuses what it cannot do: unknown session 404, bad keep_turns 400, nothing to compact says so", async () => {
    wb = await startWorkbench({ script: summarizer("s") });
    expect((await postJson(`${wb.url}/api/sessions/no-such-session/compact`, {})).status).toBe(404);
    const id = sessionIdOf(await chat(wb, "one"));
    expect((await postJson(`${wb.url}/api/sessions/${id}/compact`, { keep_turns: -1 })).status).toBe(400);
    const nothing = await postJson(`${wb.url}/api/sessions/${id}/compact`, { keep_turns: 5 });
    expect(await nothing.json()).toMatchObject({ compacted: false, reason: expect.stringMatching(/Nothing to compact/) });
  });
});
