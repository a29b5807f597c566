/**
 * A turn belongs to the workbench, not to the request that started it (issue 26): a client that
 * leaves never ends it, any number of readers join it where they left off (`Last-Event-ID` or
 * `?after=`), a message sent meanwhile is queued (follow up after, or steer now), and Stop hands the
 * queue back. Real HTTP against a real server, with the scripted model behind it.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApprovalRequestEvent, ChatEvent, ChatQueuedReply, NumberedEvent, SessionDetail, SessionSummary, StopReply } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { type ChatRequestBody, lastMessage, messageText } from "../test-support/scripted-model-server.js";
import { sandboxExpected } from "../test-support/tool-harness.js";
import { chat, fetchSession, postJson, sessionIdOf, sseFrames, startWorkbench, storedEvents, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const ANSWER = Array.from({ length: 300 }, (_, i) => `w${i}`).join(" ");
const streamUrl = (id: string, after?: number | string) => `${wb!.url}/api/sessions/${id}/stream${after !== undefined ? `?after=${after}` : ""}`;

/** Starts a streamed turn and reads its frames until `until` says stop; the connection is then dropped. */
async function readUntil(response: Response, until: (frame: NumberedEvent, all: NumberedEvent[]) => boolean, controller?: AbortController) {
  const frames: NumberedEvent[] = [];
  for await (const frame of sseFrames(response)) {
    frames.push({ id: frame.id!, event: frame.event });
    if (until(frames[frames.length - 1], frames)) break;
  }
  controller?.abort();
  return frames;
}

const readAll = (response: Response) => readUntil(response, () => false);

/** Starts a streamed turn and returns the session id once its `session` event is in; the client stays or leaves as asked. */
async function startTurn(body: Record<string, unknown>, leave = true) {
  const controller = new AbortController();
  const response = await postJson(`${wb!.url}/api/chat`, { stream: true, ...body }, { signal: controller.signal });
  const frames = await readUntil(response, (f) => f.event.type === "session");
  if (leave) controller.abort();
  const first = frames[0].event;
  if (first.type !== "session") throw new Error("no session event");
  return { sessionId: first.session_id, frames, controller, response };
}

const finalOf = async (id: string) => {
  await expect.poll(async () => (await fetchSession(wb!.url, id)).running, { timeout: 10_000 }).toBe(false);
  return storedEvents((await fetchSession(wb!.url, id)).entries).at(-1);
};
const toolResults = (body: ChatRequestBody) => body.messages.filter((m) => m.role === "tool").map((m) => messageText(m.content));
const roles = (body: ChatRequestBody) => body.messages.map((m) => m.role);

describe("a client that leaves never ends the turn", () => {
  it("mid-answer (streamed): the model request runs to its end and the file holds the whole answer", async () => {
    wb = await startWorkbench({ script: [{ content: ANSWER, chunkDelayMs: 2 }] });
    const controller = new AbortController();
    const response = await postJson(`${wb.url}/api/chat`, { message: "go", stream: true }, { signal: controller.signal });
    const frames = await readUntil(response, (_f, all) => all.filter((f) => f.event.type === "token").length === 10, controller);
    const id = sessionIdOf(frames.map((f) => f.event));
    expect(await finalOf(id)).toMatchObject({ type: "final", content: ANSWER });
    expect(wb.model.requests[0].closedEarly).toBe(false);
  });

  it("mid-answer (stream: false): the same", async () => {
    wb = await startWorkbench({ script: [{ content: ANSWER, chunkDelayMs: 3 }] });
    const controller = new AbortController();
    const pending = postJson(`${wb.url}/api/chat`, { message: "go", stream: false }, { signal: controller.signal }).catch((err: Error) => err);
    await expect.poll(() => wb!.model.requests.length).toBe(1);
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    const [session] = ((await (await fetch(`${wb.url}/api/sessions`)).json()) as { sessions: SessionSummary[] }).sessions;
    expect(await finalOf(session.id)).toMatchObject({ type: "final", content: ANSWER });
    expect(wb.model.requests[0].closedEarly).toBe(false);
  });

  it("before the first token: the model request is not aborted; a tool call and the next step still run", async () => {
    wb = await startWorkbench({
      env: { SANDBOX: "off" },
      script: (body, index) =>
        index === 0 ? { firstByteDelayMs: 800, toolCalls: [{ name: "terminal", args: { command: "sleep 0.5; echo tool-ran" } }] } : { content: `after: ${toolResults(body).join("")}` },
    });
    const { sessionId } = await startTurn({ message: "go" });
    expect(await finalOf(sessionId)).toMatchObject({ type: "final", content: expect.stringContaining("tool-ran") });
    expect(wb.model.requests.map((r) => r.closedEarly)).toEqual([false, false]);
  });

  it("is listed at once, reads as running, and is in the file while it runs", async () => {
    wb = await startWorkbench({ script: [{ firstByteDelayMs: 1500, content: "late" }] });
    const { sessionId } = await startTurn({ message: "a brand new session" });
    const list = ((await (await fetch(`${wb.url}/api/sessions`)).json()) as { sessions: SessionSummary[] }).sessions;
    expect(list.map((s) => s.id)).toContain(sessionId);
    const detail = await fetchSession(wb.url, sessionId);
    expect(detail).toMatchObject({ running: true, queue: [] });
    expect(detail.entries.find((e) => e.type === "user")).toMatchObject({ content: "a brand new session", turn: 1 });
    expect(await finalOf(sessionId)).toMatchObject({ type: "final", content: "late" });
  });
});

describe("event ids and reattaching", () => {
  it("three connections (POST, Last-Event-ID, ?after=) join into the stored answer byte for byte, no id twice", async () => {
    wb = await startWorkbench({ script: [{ content: ANSWER, chunkDelayMs: 3 }] });
    const first = new AbortController();
    const one = await readUntil(
      await postJson(`${wb.url}/api/chat`, { message: "go", stream: true }, { signal: first.signal }),
      (_f, all) => all.length === 40,
      first,
    );
    const id = sessionIdOf(one.map((f) => f.event));
    const second = new AbortController();
    const two = await readUntil(
      await fetch(streamUrl(id), { headers: { "last-event-id": String(one.at(-1)!.id) }, signal: second.signal }),
      (_f, all) => all.length === 60,
      second,
    );
    const three = await readAll(await fetch(streamUrl(id, two.at(-1)!.id)));
    const joined = [...one, ...two, ...three];
    const ids = joined.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const text = joined.flatMap((f) => (f.event.type === "token" ? [f.event.content] : [])).join("");
    const final = joined.at(-1)!.event;
    expect(final).toMatchObject({ type: "final", content: ANSWER });
    expect(text).toBe(ANSWER);
    // The stored lines carry the ids the events went out with (joined text: the first and last piece's).
    const session = await fetchSession(wb.url, id);
    const stored = session.entries.flatMap((e) => (e.type === "event" ? [e] : []));
    expect(stored.at(-1)).toMatchObject({ id: joined.at(-1)!.id, turn: 1, event: { type: "final", content: ANSWER } });
    for (const entry of stored) {
      expect(ids).toContain(entry.id);
      if (entry.first_id !== undefined) expect(ids).toContain(entry.first_id);
    }
    expect(stored.flatMap((e) => (e.event.type === "token" ? [e.event.content] : [])).join("")).toBe(ANSWER);
    // Over: nothing to reattach to.
    expect((await fetch(streamUrl(id))).status).toBe(204);
  });

  it("five readers of one turn each get every event in order, the first replayed at once", async () => {
    wb = await startWorkbench({ script: [{ content: ANSWER, chunkDelayMs: 2 }] });
    const { sessionId, frames: started } = await startTurn({ message: "go" });
    const readers = await Promise.all(
      [0, 1, 2, 3, 4].map(async () => {
        const t0 = performance.now();
        const response = await fetch(streamUrl(sessionId));
        let firstAt = 0;
        const frames = await readUntil(response, () => {
          firstAt ||= performance.now() - t0;
          return false;
        });
        return { frames, firstAt };
      }),
    );
    for (const { frames, firstAt } of readers) {
      expect(frames).toEqual(readers[0].frames);
      expect(frames[0]).toEqual(started[0]);
      expect(firstAt).toBeLessThan(1000); // generous here; measured in bench:turn
    }
    expect(readers[0].frames.at(-1)!.event).toMatchObject({ type: "final", content: ANSWER });
  });

  it("ids go on increasing across turns; an earlier turn's id replays the running turn whole", async () => {
    wb = await startWorkbench({ script: [{ content: "one" }, { content: ANSWER, chunkDelayMs: 2 }] });
    const first = [];
    for await (const f of sseFrames(await postJson(`${wb.url}/api/chat`, { message: "a", stream: true }))) first.push(f);
    const id = sessionIdOf(first.map((f) => f.event));
    const { frames } = await startTurn({ message: "b", session_id: id });
    expect(frames[0].id).toBeGreaterThan(first.at(-1)!.id!);
    expect(frames[0].event).toMatchObject({ type: "session", turn: 2 });
    const replay = await readAll(await fetch(streamUrl(id, first.at(-1)!.id!)));
    expect(replay[0]).toEqual(frames[0]);
    expect(replay.at(-1)!.event).toMatchObject({ type: "final", content: ANSWER });
  });

  it("204 with no turn, 404 for an unknown session, 400 for an id that is no id or another session's", async () => {
    wb = await startWorkbench({ script: [{ content: "other" }, { content: ANSWER, chunkDelayMs: 3 }] });
    const other = [];
    for await (const f of sseFrames(await postJson(`${wb.url}/api/chat`, { message: "elsewhere", stream: true }))) other.push(f);
    const otherId = sessionIdOf(other.map((f) => f.event));
    expect((await fetch(streamUrl(otherId))).status).toBe(204);
    expect((await fetch(streamUrl("no-such-session"))).status).toBe(404);
    expect((await fetch(streamUrl("bad.id"))).status).toBe(400);

    const { sessionId } = await startTurn({ message: "go" });
    for (const bad of ["abc", "-1", "1.5", "0", String(other[1].id), String(Number.MAX_SAFE_INTEGER)]) {
      const response = await fetch(streamUrl(sessionId, bad));
      expect({ bad, status: response.status }).toEqual({ bad, status: 400 });
      expect(((await response.json()) as { error: string }).error).toMatch(/not an event id|not one of session/);
    }
    const header = await fetch(streamUrl(sessionId), { headers: { "last-event-id": "garbage" } });
    expect(header.status).toBe(400);
    // The Host rule of every route applies (raw HTTP: fetch will not send another Host).
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port: new URL(wb!.url).port, path: `/api/sessions/${sessionId}/stream`, headers: { host: "evil.example" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe("the queue", () => {
  const queue = (id: string, message: string, mode: string, extra: Record<string, unknown> = {}) =>
    postJson(`${wb!.url}/api/chat`, { message, session_id: id, stream: true, queue: mode, ...extra });

  it("follow-ups run after the turn as the next turns, in order; one can be removed; bad input is refused", async () => {
    wb = await startWorkbench({ script: (body, index) => (index === 0 ? { content: ANSWER, chunkDelayMs: 3 } : { content: `re: ${messageText(lastMessage(body).content)}` }) });
    const { sessionId } = await startTurn({ message: "first" });
    const replies: ChatQueuedReply[] = [];
    for (const message of ["second", "dropped", "third"]) {
      const response = await queue(sessionId, message, "follow_up");
      expect(response.status).toBe(202);
      replies.push((await response.json()) as ChatQueuedReply);
    }
    const listed = await fetchSession(wb.url, sessionId);
    expect(listed.queue.map((q) => [q.id, q.message, q.mode])).toEqual(replies.map((r, i) => [r.queued, ["second", "dropped", "third"][i], "follow_up"]));
    expect((await fetch(`${wb.url}/api/sessions/${sessionId}/queue/${replies[1].queued}`, { method: "DELETE", headers: { origin: wb.url } })).status).toBe(204);
    expect((await fetch(`${wb.url}/api/sessions/${sessionId}/queue/${replies[1].queued}`, { method: "DELETE", headers: { origin: wb.url } })).status).toBe(404);
    expect((await fetch(`${wb.url}/api/sessions/${sessionId}/queue/x`, { method: "DELETE", headers: { origin: "http://evil.example" } })).status).toBe(403);
    expect((await fetch(`${wb.url}/api/sessions/no-such/queue/x`, { method: "DELETE" })).status).toBe(404);

    // Without queue: still a 409. Other queue values: 400. Over the size limit: 413, not queued. Unknown session: 404.
    expect((await postJson(`${wb.url}/api/chat`, { message: "x", session_id: sessionId, stream: true })).status).toBe(409);
    expect((await queue(sessionId, "x", "later")).status).toBe(400);
    expect((await queue(sessionId, "x".repeat(wb.config.limits.messageChars + 1), "follow_up")).status).toBe(413);
    expect((await queue("no-such-session", "x", "follow_up")).status).toBe(404);
    expect((await fetchSession(wb.url, sessionId)).queue).toHaveLength(2);

    await expect.poll(async () => (await fetchSession(wb!.url, sessionId)).branch.length, { timeout: 10_000 }).toBe(3);
    await expect.poll(async () => (await fetchSession(wb!.url, sessionId)).running, { timeout: 10_000 }).toBe(false);
    const session = await fetchSession(wb.url, sessionId);
    expect(session.branch.map((t) => t.turn)).toEqual([1, 2, 3]);
    expect(session.entries.flatMap((e) => (e.type === "user" ? [e.content] : []))).toEqual(["first", "second", "third"]);
    expect(storedEvents(session.entries).filter((e) => e.type === "final").map((e) => e.type === "final" && e.content)).toEqual([ANSWER, "re: second", "re: third"]);
    expect(session.queue).toEqual([]);
  });

  it("a queued message to a session whose turn has ended is never answered with that turn's stream: 202 names the turn it started, and GET …/stream follows it", async () => {
    wb = await startWorkbench({ script: (body) => ({ content: `re: ${messageText(lastMessage(body).content)}` }) });
    const first = await chat(wb, "first");
    const sessionId = sessionIdOf(first);
    // The turn is over: a message sent as a follow-up (the page still thought it ran) starts the next turn.
    for (const [send, mode] of [
      [() => queue(sessionId, "second", "follow_up"), "follow_up"],
      [() => postJson(`${wb!.url}/api/sessions/${sessionId}/queue`, { message: "third", mode: "steer" }, { headers: { origin: wb!.url } }), "steer"],
    ] as const) {
      const response = await send();
      expect(response.status).toBe(202);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const reply = (await response.json()) as ChatQueuedReply;
      expect(reply).toMatchObject({ session_id: sessionId, mode, started: true, turn: expect.any(Number) });
      const stream = await fetch(`${wb.url}/api/sessions/${sessionId}/stream`);
      const events: ChatEvent[] = [];
      if (stream.status === 200) for await (const frame of sseFrames(stream)) events.push(frame.event);
      const done = await fetchSession(wb.url, sessionId);
      const answered = storedEvents(done.entries).filter((e) => e.type === "final").map((e) => e.type === "final" && e.content);
      expect(answered.at(-1)).toBe(`re: ${mode === "steer" ? "third" : "second"}`);
      if (events.length > 0) expect(events.at(-1)).toMatchObject({ type: "final" });
      expect(done.branch.at(-1)?.turn).toBe(reply.turn);
    }
  });

  it("POST /api/sessions/:id/queue queues behind a running turn as /api/chat's queue does, and refuses what it refuses", async () => {
    wb = await startWorkbench({ script: [{ firstByteDelayMs: 3000, content: "slow" }] });
    const { sessionId } = await startTurn({ message: "go" });
    const post = (id: string, body: unknown, origin = wb!.url) => postJson(`${wb!.url}/api/sessions/${id}/queue`, body, { headers: { origin } });
    const queued = await post(sessionId, { message: "later" });
    expect(queued.status).toBe(202);
    const reply = (await queued.json()) as ChatQueuedReply;
    expect(reply).toMatchObject({ session_id: sessionId, mode: "follow_up" });
    expect(reply.started).toBeUndefined();
    expect((await fetchSession(wb.url, sessionId)).queue.map((q) => q.id)).toEqual([reply.queued]);
    expect((await post(sessionId, { message: "x", mode: "later" })).status).toBe(400);
    expect((await post(sessionId, { message: "x".repeat(wb.config.limits.messageChars + 1) })).status).toBe(413);
    expect((await post("no-such-session", { message: "x" })).status).toBe(404);
    expect((await post(sessionId, { message: "x" }, "http://evil.example")).status).toBe(403);
    expect((await postJson(`${wb.url}/api/sessions/${sessionId}/stop`, {})).status).toBe(200);
  });

  it("more than 20 queued is a 429", async () => {
    wb = await startWorkbench({ script: [{ firstByteDelayMs: 3000, content: "slow" }] });
    const { sessionId } = await startTurn({ message: "go" });
    for (let i = 0; i < 20; i++) expect((await queue(sessionId, `m${i}`, i % 2 ? "steer" : "follow_up")).status).toBe(202);
    const refused = await queue(sessionId, "one too many", "follow_up");
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toMatch(/20 queued/);
    expect((await postJson(`${wb.url}/api/sessions/${sessionId}/stop`, {})).status).toBe(200);
  });

  it("Stop hands the queue back, ends the turn as stopped, and nothing follows", async () => {
    wb = await startWorkbench({ script: [{ content: ANSWER, chunkDelayMs: 5 }, { content: "should never run" }] });
    const { sessionId } = await startTurn({ message: "go" });
    await queue(sessionId, "follow me", "follow_up");
    await queue(sessionId, "steer me", "steer");
    const stop = await postJson(`${wb.url}/api/sessions/${sessionId}/stop`, {});
    expect(stop.status).toBe(200);
    const reply = (await stop.json()) as StopReply;
    expect(reply.queue.map((q) => [q.message, q.mode])).toEqual([
      ["follow me", "follow_up"],
      ["steer me", "steer"],
    ]);
    expect(await finalOf(sessionId)).toMatchObject({ type: "error", code: "aborted" });
    await new Promise((r) => setTimeout(r, 300));
    // The stopped turn's request (if it got that far before Stop), and nothing queued after it.
    expect(wb.model.requests.length).toBeLessThanOrEqual(1);
    expect(JSON.stringify(wb.model.requests.map((r) => r.body.messages))).not.toMatch(/follow me|steer me/);
    expect((await fetchSession(wb.url, sessionId)).queue).toEqual([]);
    expect((await postJson(`${wb.url}/api/sessions/${sessionId}/stop`, {})).status).toBe(409);
    expect((await postJson(`${wb.url}/api/sessions/no-such-session/stop`, {})).status).toBe(404);
  });

  it("steer during a running tool call: the call finishes, the message follows its result, one final", async () => {
    wb = await startWorkbench({
      env: { SANDBOX: "off" },
      script: (body, index) =>
        index === 0 ? { toolCalls: [{ name: "terminal", args: { command: "sleep 0.8; echo slow-tool-done" } }] } : { content: `seen: ${roles(body).slice(-2).join(",")} ${messageText(lastMessage(body).content)}` },
    });
    const controller = new AbortController();
    const response = await postJson(`${wb.url}/api/chat`, { message: "go", stream: true }, { signal: controller.signal });
    const frames: NumberedEvent[] = [];
    let queued = "";
    for await (const f of sseFrames(response)) {
      frames.push({ id: f.id!, event: f.event });
      if (f.event.type === "tool_call") {
        const id = sessionIdOf(frames.map((x) => x.event));
        queued = ((await (await queue(id, "use the other folder", "steer")).json()) as ChatQueuedReply).queued!;
      }
    }
    const events = frames.map((f) => f.event);
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ ok: true, output: expect.stringContaining("slow-tool-done") });
    expect(events.filter((e) => e.type === "final")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "final", content: "seen: tool,user use the other folder" });
    const steer = events.findIndex((e) => e.type === "steer");
    expect(events[steer]).toEqual({ type: "steer", id: queued, content: "use the other folder" });
    expect(steer).toBeGreaterThan(events.findIndex((e) => e.type === "tool_result"));
    // The next turn's history holds it where it was delivered.
    wb.model.setScript(() => ({ content: "next" }));
    await chat(wb, "and now?", sessionIdOf(events));
    expect(roles(wb.model.requests.at(-1)!.body)).toEqual(["system", "user", "assistant", "tool", "user", "assistant", "user"]);
  });

  it("steer before a step's calls start: they are skipped with paired results, none runs", async () => {
    wb = await startWorkbench({
      env: { SANDBOX: "off" },
      script: (body, index) =>
        index === 0
          ? { firstByteDelayMs: 600, toolCalls: [{ name: "terminal", args: { command: "touch workspace/one" } }, { name: "terminal", args: { command: "touch workspace/two" } }] }
          : { content: `results: ${toolResults(body).length}, last: ${messageText(lastMessage(body).content)}` },
    });
    const { sessionId } = await startTurn({ message: "go" });
    expect((await queue(sessionId, "stop, do not touch anything", "steer")).status).toBe(202);
    const final = await finalOf(sessionId);
    expect(final).toMatchObject({ type: "final", content: "results: 2, last: stop, do not touch anything" });
    const events = storedEvents((await fetchSession(wb.url, sessionId)).entries);
    const results = events.filter((e) => e.type === "tool_result");
    expect(results).toHaveLength(2);
    for (const result of results) expect(result).toMatchObject({ ok: false, output: expect.stringMatching(/^Skipped: the user sent a message/) });
    await expect(readFile(join(wb.dataRoot, "workspace/one"))).rejects.toThrow();
    await expect(readFile(join(wb.dataRoot, "workspace/two"))).rejects.toThrow();
    const request = wb.model.requests[1].body;
    expect(roles(request)).toEqual(["system", "user", "assistant", "tool", "tool", "user"]);
  });
});

describe("approvals and shutdown without a client", () => {
  it.skipIf(!sandboxExpected().available)("an approval waits with no client attached, is decided, and the turn runs to its end", async () => {
    wb = await startWorkbench({
      env: { APPROVALS: "on" },
      script: (body) => (toolResults(body).length === 0 ? { toolCalls: [{ name: "terminal", args: { command: "touch workspace/approved-file" } }] } : { content: "made it" }),
    });
    const controller = new AbortController();
    const response = await postJson(`${wb.url}/api/chat`, { message: "make it", stream: true }, { signal: controller.signal });
    const frames = await readUntil(response, (f) => f.event.type === "approval_request", controller);
    const request = frames.at(-1)!.event as ApprovalRequestEvent;
    const sessionId = sessionIdOf(frames.map((f) => f.event));
    await new Promise((r) => setTimeout(r, 500));
    expect((await fetchSession(wb.url, sessionId)).running).toBe(true);
    const decided = await fetch(`${wb.url}/api/approvals/${request.id}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: wb.url },
      body: JSON.stringify({ decision: "approve" }),
    });
    expect(decided.status).toBe(200);
    expect(await finalOf(sessionId)).toMatchObject({ type: "final", content: "made it" });
    expect(await readFile(join(wb.dataRoot, "workspace/approved-file"), "utf8")).toBe("");
  });

  it("the server shutting down stops a running turn and writes it to its end", async () => {
    const root = await mkdtemp(join(tmpdir(), "moc-shutdown-"));
    const server = await startWorkbench({ dataRoot: root, script: [{ content: ANSWER, chunkDelayMs: 5 }] });
    try {
      const controller = new AbortController();
      const response = await postJson(`${server.url}/api/chat`, { message: "go", stream: true }, { signal: controller.signal });
      const frames = await readUntil(response, (_f, all) => all.length === 20, controller);
      const id = sessionIdOf(frames.map((f) => f.event));
      await server.app.close();
      const lines = (await readFile(join(root, "sessions", `${id}.jsonl`), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { type: string; event?: ChatEvent });
      expect(lines.at(-1)!.event).toMatchObject({ type: "error", code: "aborted", message: expect.stringMatching(/shut down/) });
    } finally {
      await server.model.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("turns are named by stored ids", () => {
  it("a line that cannot be read renumbers no other turn; files from before turn ids still open", async () => {
    wb = await startWorkbench({ script: (body) => ({ content: `re: ${messageText(lastMessage(body).content)}` }) });
    const id = sessionIdOf(await chat(wb, "one"));
    await chat(wb, "two", id);
    await chat(wb, "three", id);
    const file = join(wb.dataRoot, "sessions", `${id}.jsonl`);
    const lines = (await readFile(file, "utf8")).split("\n");
    const two = lines.findIndex((l) => l.includes('"content":"two"') && l.includes('"type":"user"'));
    lines[two] = "{ this line was torn";
    await writeFile(file, lines.join("\n"));
    const session = (await (await fetch(`${wb.url}/api/sessions/${id}`)).json()) as SessionDetail;
    expect(session.branch.map((t) => t.turn)).toEqual([1, 3]);
    expect(session.entries.flatMap((e) => (e.type === "user" ? [[e.turn, e.content]] : []))).toEqual([
      [1, "one"],
      [3, "three"],
    ]);
    // Turn two's events went with its message: none shows under turn one.
    expect(storedEvents(session.entries).filter((e) => e.type === "final").map((e) => e.type === "final" && e.content)).toEqual(["re: one", "re: three"]);
    // The next turn follows 3 and is 4.
    const next = await chat(wb, "four", id);
    expect(next[0]).toMatchObject({ type: "session", turn: 4 });
  });
});
