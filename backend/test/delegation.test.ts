import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { AgentsReply, ChatEvent, SessionDetail, StoredEvent } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { joinTextRuns } from "../src/sessions/join-text-events.js";
import { type ChatRequestBody, lastMessage, messageText, systemPromptOf } from "../test-support/scripted-model-server.js";
import { chat, contentKinds, fetchSession, postJson, sessionIdOf, sseEvents, startWorkbench, storedEvents, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const roleOf = (body: ChatRequestBody) => /^You are the "([^"]+)" sub-agent/.exec(systemPromptOf(body))?.[1] ?? null;
const isReviewer = (body: ChatRequestBody) => systemPromptOf(body).startsWith("# Reviewer");
const toolResults = (body: ChatRequestBody) => body.messages.filter((m) => m.role === "tool").map((m) => messageText(m.content));
const toolNames = (body: ChatRequestBody) => (body.tools ?? []).map((t) => t.function.name);
const allText = (body: ChatRequestBody) => JSON.stringify(body.messages);

/** Nested events of one delegate call, in stream order. */
const under = (events: ChatEvent[], callId: string) => events.flatMap((e) => (e.type === "delegate" && e.call_id === callId ? [e.event] : []));

describe("delegation to sub-agents", () => {
  it("runs two delegations of one step at once, each with only its role's tools, and gives the parent both answers", async () => {
    wb = await startWorkbench({
      script: (body) => {
        const role = roleOf(body);
        const results = toolResults(body);
        if (role === "researcher") {
          if (results.length === 0) return { toolCalls: [{ name: "read_file", args: { path: "knowledge/field-notes.md" } }], chunkDelayMs: 20 };
          if (results.length === 1) return { toolCalls: [{ name: "terminal", args: { command: "cat /etc/passwd" } }], chunkDelayMs: 20 };
          return { content: "Researcher found: the note is in field-notes.md.", chunkDelayMs: 25 };
        }
        if (role === "analyst") return { content: "Analyst computed: forty two, checked twice and then once more.", chunkDelayMs: 25 };
        if (results.length === 0) {
          return {
            toolCalls: [
              { id: "call_research", name: "delegate", args: { agent: "researcher", task: "Where is the note?" } },
              { id: "call_analysis", name: "delegate", args: { agent: "analyst", task: "What is six times seven?" } },
            ],
          };
        }
        return { content: `Both done: ${results.join(" | ")}` };
      },
    });
    await writeFile(join(wb.dataRoot, "knowledge/field-notes.md"), "FIELD-NOTE-991: the note is here.\n");
    const events = await chat(wb, "split this in two");
    const final = events[events.length - 1];
    expect(final).toMatchObject({ type: "final", content: "Both done: Researcher found: the note is in field-notes.md. | Analyst computed: forty two, checked twice and then once more." });

    // Both ran at once: their streamed events interleave.
    const order = events.flatMap((e, i) => (e.type === "delegate" ? [{ i, id: e.call_id }] : []));
    const span = (id: string) => [order.find((o) => o.id === id)!.i, order.findLast((o) => o.id === id)!.i];
    const [researchStart, researchEnd] = span("call_research");
    const [analysisStart, analysisEnd] = span("call_analysis");
    expect(researchStart < analysisEnd && analysisStart < researchEnd).toBe(true);

    // Each sub-agent had only its role's tools, a fresh context, and its own system prompt.
    const researcherRequests = wb.model.requests.filter((r) => roleOf(r.body) === "researcher");
    const analystRequests = wb.model.requests.filter((r) => roleOf(r.body) === "analyst");
    expect(toolNames(researcherRequests[0].body)).toEqual(["read_file", "fetch_url", "search_knowledge_base"]);
    expect(toolNames(analystRequests[0].body)).toEqual(["read_file", "python_repl"]);
    expect(toolNames(wb.model.requests[0].body)).toContain("delegate");
    expect(researcherRequests[0].body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(messageText(lastMessage(researcherRequests[0].body).content)).toBe("Where is the note?");
    expect(allText(researcherRequests[0].body)).not.toContain("split this in two");

    // A call outside the role's tools is refused, and nothing ran.
    const refused = under(events, "call_research").find((e) => e.type === "tool_result" && e.name === "terminal");
    expect(refused).toMatchObject({ ok: false });
    expect(refused?.type === "tool_result" && refused.output).toBe("Error: terminal is not a valid tool, try one of [read_file, fetch_url, search_knowledge_base].");
    expect(allText(researcherRequests[2].body)).toMatch(/terminal/);

    // The parent's context got the answers only, not the sub-agents' work.
    const parentSecond = wb.model.requests.filter((r) => roleOf(r.body) === null)[1].body;
    expect(allText(parentSecond)).not.toContain("FIELD-NOTE-991"); // the file the researcher read
    expect(allText(parentSecond)).not.toContain("cat /etc/passwd");

    // The whole trace is stored in the session as it streamed, under each delegate call.
    const stored = storedEvents((await fetchSession(wb.url, sessionIdOf(events))).entries);
    const results = stored.filter((e) => e.type === "tool_result" && e.name === "delegate");
    expect(results.map((e) => e.type === "tool_result" && e.id).sort()).toEqual(["call_analysis", "call_research"]);
    const research = results.find((e) => e.type === "tool_result" && e.id === "call_research");
    expect(research).toMatchObject({ ok: true, details: { agent: "researcher", depth: 1, task: "Where is the note?" } });
    // Two sub-agents streamed at once, so pieces of one's text sit between the other's: joined here.
    const trace = joinTextRuns(under(stored as ChatEvent[], "call_research").filter((e) => e.type !== "usage") as StoredEvent[]);
    const said = trace.filter((e) => contentKinds([e.type]).length > 0);
    expect(said.map((e) => e.type)).toEqual(["tool_call", "tool_result", "tool_call", "tool_result", "token", "final"]);
    expect(said[1]).toMatchObject({ type: "tool_result", name: "read_file", ok: true });
  });

  it("refuses a delegation chain deeper than the limit, with a reason the agent can act on", async () => {
    wb = await startWorkbench({
      script: (body) => {
        const results = toolResults(body);
        if (results.length > 0) return { content: `${roleOf(body) ?? "main"} got: ${results[0]}` };
        return { toolCalls: [{ name: "delegate", args: { agent: "chain", task: "go one level deeper" } }] };
      },
    });
    await writeFile(join(wb.dataRoot, "agents/chain.md"), "---\nname: chain\ndescription: Delegates again.\ntools: delegate\n---\nAlways delegate to chain.\n");
    const events = await chat(wb, "go deep");
    const depthOne = events.find((e) => e.type === "delegate" && e.depth === 1)!;
    expect(depthOne).toBeDefined();
    const depthTwo = events.filter((e) => e.type === "delegate" && e.event.type === "delegate" && e.event.depth === 2);
    expect(depthTwo.length).toBeGreaterThan(0);
    const refusal = depthTwo
      .map((e) => (e.type === "delegate" && e.event.type === "delegate" ? e.event.event : null))
      .find((e) => e?.type === "tool_result");
    expect(refusal).toMatchObject({ type: "tool_result", name: "delegate", ok: false });
    expect(refusal?.type === "tool_result" && refusal.output).toBe(
      "Error: delegation refused: the depth limit is 2 and this agent is already at depth 2 (main → chain → chain). Do the task yourself with your own tools.",
    );
    // Exactly two levels of sub-agents ran, two model requests each (the delegate call, then the answer).
    expect(wb.model.requests.filter((r) => roleOf(r.body) === "chain").length).toBe(4);
    expect(events[events.length - 1]).toMatchObject({ type: "final", content: expect.stringMatching(/^main got: chain got: chain got: Error: delegation refused/) });
  });

  it("cancelling the turn stops every running sub-agent", async () => {
    wb = await startWorkbench({
      script: (body) => {
        if (roleOf(body)) return { kind: "hang" };
        return {
          toolCalls: [
            { name: "delegate", args: { agent: "researcher", task: "slow one" } },
            { name: "delegate", args: { agent: "analyst", task: "slow two" } },
          ],
        };
      },
    });
    const controller = new AbortController();
    const response = await postJson(`${wb.url}/api/chat`, { message: "start two", stream: true }, { signal: controller.signal });
    let sessionId = "";
    const reading = (async () => {
      try {
        for await (const event of sseEvents(response)) if (event.type === "session") sessionId = event.session_id;
      } catch {
        // aborted
      }
    })();
    await expect.poll(() => wb!.model.requests.filter((r) => roleOf(r.body)).length, { timeout: 5000 }).toBe(2);
    const status = (await (await fetch(`${wb.url}/api/agents`)).json()) as AgentsReply;
    expect(status.running.map((r) => r.agent).sort()).toEqual(["analyst", "researcher"]);
    // Stop (not the client leaving, which leaves a turn running) ends the turn and its sub-agents.
    expect((await postJson(`${wb.url}/api/sessions/${sessionId}/stop`, {})).status).toBe(200);
    await reading;
    controller.abort();
    await expect.poll(() => wb!.model.requests.filter((r) => roleOf(r.body)).every((r) => r.closedEarly), { timeout: 5000 }).toBe(true);
    await expect.poll(async () => ((await (await fetch(`${wb!.url}/api/agents`)).json()) as AgentsReply).running, { timeout: 5000 }).toEqual([]);
    await expect
      .poll(async () => storedEvents((await fetchSession(wb!.url, sessionId)).entries).some((e) => e.type === "error" && e.code === "aborted"))
      .toBe(true);
  });

  it("a sub-agent past DELEGATE_TIMEOUT_MS is stopped, and the parent is told so and carries on", async () => {
    wb = await startWorkbench({
      env: { DELEGATE_TIMEOUT_MS: "600" },
      script: (body) => {
        if (roleOf(body)) return { kind: "hang" };
        const results = toolResults(body);
        if (results.length === 0) return { toolCalls: [{ name: "delegate", args: { agent: "researcher", task: "never ends" } }] };
        return { content: `Noted: ${results[0]}` };
      },
    });
    const events = await chat(wb, "try it");
    expect(events[events.length - 1]).toMatchObject({
      type: "final",
      content: 'Noted: Error: the "researcher" sub-agent failed: it did not finish within 600 ms and was stopped',
    });
    await expect.poll(() => wb!.model.requests.filter((r) => roleOf(r.body)).every((r) => r.closedEarly), { timeout: 2000 }).toBe(true);
  });

  it("a session keeps the tool definitions it started with when a role is added", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    const id = sessionIdOf(await chat(wb, "first"));
    await writeFile(join(wb.dataRoot, "agents/late.md"), "---\nname: late\ndescription: Arrived later.\ntools: read_file\n---\nBe late.\n");
    await chat(wb, "second", id);
    const [first, second] = wb.model.requests.map((r) => JSON.stringify(r.body.tools));
    expect(second).toBe(first);
    await chat(wb, "a new session");
    expect(JSON.stringify(wb.model.requests[2].body.tools)).toContain("late: Arrived later.");
  });

  it("lists roles and their problems in the status view", async () => {
    wb = await startWorkbench();
    await mkdir(join(wb.dataRoot, "agents"), { recursive: true });
    await writeFile(join(wb.dataRoot, "agents/broken.md"), "---\nname: broken\n---\n");
    const status = (await (await fetch(`${wb.url}/api/agents`)).json()) as AgentsReply;
    expect(status.roles.map((r) => [r.name, r.tools])).toEqual([
      ["analyst", ["read_file", "python_repl"]],
      ["researcher", ["read_file", "fetch_url", "search_knowledge_base"]],
    ]);
    expect(status.problems).toEqual([{ path: "agents/broken.md", reason: "frontmatter is missing 'description'" }]);
    expect(status).toMatchObject({ max_depth: 2, running: [], reviewer: { enabled: false, latest: null } });
  });
});

describe("the reviewer", () => {
  it("runs after the answer, reads the turn with read_file only; its advice reaches the next turn and its record no model request", async () => {
    wb = await startWorkbench({
      env: { REVIEWER: "on" },
      script: (body) => {
        if (isReviewer(body)) {
          const task = messageText(body.messages[1].content);
          const [, offset, limit] = /offset (\d+), limit (\d+)/.exec(task) ?? [];
          const path = /session file (\S+):/.exec(task)?.[1];
          if (toolResults(body).length === 0) return { toolCalls: [{ name: "read_file", args: { path, offset: Number(offset), limit: Number(limit) } }] };
          return {
            firstByteDelayMs: 800,
            content: '```json\n{"advice": "Say where the 13 °C came from.", "record": "RECORD-7f3: the answer gave no source."}\n```',
          };
        }
        return { content: "It is 13 °C." };
      },
    });
    const events = await chat(wb, "how warm is it?");
    const id = sessionIdOf(events);
    expect(events[events.length - 1]).toMatchObject({ type: "final" });
    // The answer was out before the review was written.
    const right = (await (await fetch(`${wb.url}/api/sessions/${id}`)).json()) as SessionDetail;
    expect(right.entries.some((e) => e.type === "review")).toBe(false);

    await expect
      .poll(async () => ((await (await fetch(`${wb!.url}/api/sessions/${id}`)).json()) as SessionDetail).entries.find((e) => e.type === "review"), { timeout: 5000 })
      .toMatchObject({ type: "review", advice: "Say where the 13 °C came from.", content: "RECORD-7f3: the answer gave no source." });
    const reviewerRequests = wb.model.requests.filter((r) => isReviewer(r.body));
    expect(toolNames(reviewerRequests[0].body)).toEqual(["read_file"]);
    // It read the turn: the user's message and the answer were in what read_file returned.
    expect(toolResults(reviewerRequests[1].body)[0]).toContain("how warm is it?");
    expect(toolResults(reviewerRequests[1].body)[0]).toContain("It is 13 °C.");
    const status = (await (await fetch(`${wb.url}/api/agents`)).json()) as AgentsReply;
    expect(status.reviewer).toMatchObject({ enabled: true, latest: { session_id: id, advice: "Say where the 13 °C came from." } });

    await chat(wb, "and tomorrow?", id);
    const mainRequests = wb.model.requests.filter((r) => !isReviewer(r.body));
    expect(messageText(lastMessage(mainRequests[1].body).content)).toBe("<reviewer_advice>\nSay where the 13 °C came from.\n</reviewer_advice>\n\nand tomorrow?");
    await expect.poll(() => wb!.model.requests.filter((r) => isReviewer(r.body)).length, { timeout: 5000 }).toBe(4);
    for (const request of wb.model.requests) expect(allText(request.body)).not.toContain("RECORD-7f3");
  });

  it("is off by default and switched on and off through the API", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    await chat(wb, "hello");
    expect(wb.model.requests).toHaveLength(1);
    const on = await postJson(`${wb.url}/api/reviewer`, { enabled: true });
    expect(await on.json()).toMatchObject({ enabled: true });
    expect((await postJson(`${wb.url}/api/reviewer`, { enabled: "yes" })).status).toBe(400);
  });
});
