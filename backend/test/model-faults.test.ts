import type { ChatEvent, SessionDetail } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { chat, fetchSession, postJson, sessionIdOf, sseEvents, startWorkbench, storedEvents, type Workbench, type WorkbenchOptions } from "../test-support/workbench-harness.js";

let wb: Workbench;
afterEach(async () => wb?.close());

async function failedTurn(options: WorkbenchOptions) {
  wb = await startWorkbench({ env: { MODEL_TIMEOUT_MS: "800" }, ...options });
  const started = Date.now();
  const events = await chat(wb, "hello");
  const elapsed = Date.now() - started;
  const errors = events.filter((e) => e.type === "error");
  expect(errors).toHaveLength(1);
  expect(events[events.length - 1].type).toBe("error");
  expect(events.some((e) => e.type === "final")).toBe(false);
  return { error: errors[0] as Extract<ChatEvent, { type: "error" }>, events, elapsed };
}

async function expectSessionLoads(events: ChatEvent[], code: string) {
  const response = await fetch(`${wb.url}/api/sessions/${sessionIdOf(events)}`);
  expect(response.status).toBe(200);
  const session = (await response.json()) as SessionDetail;
  expect(session.entries.map((e) => e.type).slice(0, 2)).toEqual(["snapshot", "user"]);
  expect(session.entries[1]).toMatchObject({ type: "user", content: "hello" });
  expect(storedEvents(session.entries).at(-1)).toMatchObject({ type: "error", code });
}

describe("model trouble becomes one readable error event and a session that still loads", () => {
  it("endpoint down", async () => {
    const { error, events } = await failedTurn({ env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", MODEL_TIMEOUT_MS: "3000" } });
    expect(error).toMatchObject({ code: "model_unreachable", message: expect.stringContaining("Cannot reach the model endpoint http://127.0.0.1:9/v1") });
    await expectSessionLoads(events, "model_unreachable");
  });

  it("401", async () => {
    const { error, events } = await failedTurn({ script: [{ kind: "error", status: 401, message: "Incorrect API key provided" }] });
    expect(error.code).toBe("model_auth");
    expect(error.message).toMatch(/refused the credentials \(401\): check OPENAI_API_KEY in KEY\.md/);
    expect(error.message).not.toContain("test-key");
    await expectSessionLoads(events, "model_auth");
  });

  it("500", async () => {
    const { error, events } = await failedTurn({ script: [{ kind: "error", status: 500, message: "upstream exploded" }] });
    expect(error).toMatchObject({ code: "model_error", message: "The model endpoint answered 500: upstream exploded" });
    await expectSessionLoads(events, "model_error");
  });

  it("a stream that stops mid-way (connection dropped), keeping the text shown so far", async () => {
    const { error, events } = await failedTurn({ script: [{ kind: "cut", content: "The answer is forty two and more", afterChunks: 3 }] });
    expect(error.code).toBe("model_bad_response");
    expect(error.message).toMatch(/broke off mid-answer/);
    // The three chunks sent before the cut, whichever way the turn's events cut them.
    expect(events.filter((e) => e.type === "token").map((e) => (e.type === "token" ? e.content : "")).join("")).toBe("The answer is ");
    await expectSessionLoads(events, "model_bad_response");
    const session = (await (await fetch(`${wb.url}/api/sessions/${sessionIdOf(events)}`)).json()) as SessionDetail;
    expect(storedEvents(session.entries).filter((e) => e.type === "token" || e.type === "error").map((e) => e.type)).toEqual(["token", "error"]);
    expect(storedEvents(session.entries).find((e) => e.type === "token")).toEqual({ type: "token", block: expect.any(String), content: "The answer is " });
  });

  it("a stream that goes silent mid-way", async () => {
    const { error, elapsed } = await failedTurn({ script: [{ kind: "stall", content: "one two three four", afterChunks: 2 }] });
    expect(error.code).toBe("model_timeout");
    expect(elapsed).toBeLessThan(10_000);
  });

  it("a hang past the timeout", async () => {
    const { error, events, elapsed } = await failedTurn({ script: [{ kind: "hang" }] });
    expect(error.code).toBe("model_timeout");
    expect(error.message).toMatch(/model/);
    expect(elapsed).toBeLessThan(10_000);
    await expectSessionLoads(events, "model_timeout");
  });

  it("garbage instead of JSON chunks", async () => {
    const { error, events } = await failedTurn({ script: [{ kind: "garbage" }] });
    expect(error.code).toBe("model_bad_response");
    await expectSessionLoads(events, "model_bad_response");
  });

  it("a non-streamed turn maps the failure to an HTTP status", async () => {
    wb = await startWorkbench({ script: [{ kind: "error", status: 500, message: "boom" }] });
    const response = await postJson(`${wb.url}/api/chat`, { message: "hello", stream: false });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: "The model endpoint answered 500: boom", code: "model_error" });
  });

  it("the next turn in the same session works after a failure", async () => {
    wb = await startWorkbench({ script: [{ kind: "error", status: 500, message: "boom" }, { content: "fine now" }] });
    const id = sessionIdOf(await chat(wb, "hello"));
    const events = await chat(wb, "again", id);
    expect(events[events.length - 1]).toMatchObject({ type: "final", content: "fine now" });
  });
});

describe("no model configured", () => {
  it("chat answers with an error that says what to put in KEY.md; everything else works", async () => {
    wb = await startWorkbench({ noModel: true });
    const events = await chat(wb, "hello");
    expect(events).toEqual([
      { type: "error", code: "model_not_configured", message: expect.stringMatching(/Model button .*put OPENAI_API_KEY=\.\.\. .* in .*KEY\.md/) },
    ]);
    const nonStreamed = await postJson(`${wb.url}/api/chat`, { message: "hello", stream: false });
    expect(nonStreamed.status).toBe(503);

    const health = (await (await fetch(`${wb.url}/api/health`)).json()) as { model: { configured: boolean; hint: string } };
    expect(health.model).toMatchObject({ configured: false, hint: expect.stringContaining("KEY.md") });
    expect((await fetch(`${wb.url}/api/skills`)).status).toBe(200);
    expect((await fetch(`${wb.url}/api/sessions`)).status).toBe(200);
    expect((await fetch(`${wb.url}/api/prompt`)).status).toBe(200);
    expect((await fetch(`${wb.url}/api/files?path=memory/MEMORY.md`)).status).toBe(200);
    expect((await postJson(`${wb.url}/api/files`, { path: "memory/MEMORY.md", content: "# M\n" })).status).toBe(200);
  });
});

describe("a client that disconnects mid-stream", () => {
  it("leaves the turn running: the model request runs to its end and the session holds the whole answer", async () => {
    const answer = "word ".repeat(200).trim();
    wb = await startWorkbench({ script: [{ content: answer, chunkDelayMs: 2 }] });
    const controller = new AbortController();
    const response = await postJson(`${wb.url}/api/chat`, { message: "hello", stream: true }, { signal: controller.signal });
    let sessionId = "";
    let tokens = 0;
    try {
      for await (const event of sseEvents(response)) {
        if (event.type === "session") sessionId = event.session_id;
        if (event.type === "token" && ++tokens === 5) controller.abort();
      }
    } catch (err) {
      expect((err as Error).name).toBe("AbortError");
    }
    await expect.poll(async () => storedEvents((await fetchSession(wb.url, sessionId)).entries).at(-1), { timeout: 5000 }).toMatchObject({ type: "final", content: answer });
    expect(wb.model.requests[0].closedEarly).toBe(false);
    // The session is free again.
    wb.model.setScript([{ content: "back" }]);
    const events = await chat(wb, "again", sessionId);
    expect(events[events.length - 1]).toMatchObject({ type: "final", content: "back" });
  });
});
