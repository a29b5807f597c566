/**
 * Session control through the real workbench: rename, pin, delete to the trash and undo, search,
 * export and import; and none of it on a session whose own turn runs.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionDeleteReply, SessionEntry, SessionExport, SessionSearchReply, SessionSummary } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { lastMessage, messageText } from "../test-support/scripted-model-server.js";
import { writeSessionFile } from "../test-support/session-files.js";
import { chat, fetchSession, postJson, sessionIdOf, sseEvents, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const json = <T>(response: Response) => response.json() as Promise<T>;
const list = async (wb: Workbench) => (await json<{ sessions: SessionSummary[] }>(await fetch(`${wb.url}/api/sessions`))).sessions;
const patch = (wb: Workbench, id: string, body: unknown) =>
  fetch(`${wb.url}/api/sessions/${id}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const qa = (i: number) => ({ user: `Question ${i} about the garden`, answer: `Answer ${i}: water the tomatoes every ${i} days.` });

describe("rename and pin", () => {
  it("a title the user gives is kept, the generated one comes back with null, and the model never sees either", async () => {
    wb = await startWorkbench({ script: [{ content: "first" }, { content: "second" }] });
    const id = sessionIdOf(await chat(wb, "What should I plant in March?"));
    const before = (await list(wb)).find((s) => s.id === id)!;
    expect(before.title).toBe("What should I plant in March?");

    const renamed = await json<SessionSummary>(await patch(wb, id, { title: "  Spring   planting " }));
    expect(renamed).toMatchObject({ id, title: "Spring planting", updated_at: before.updated_at, pinned: false });
    expect((await list(wb)).find((s) => s.id === id)?.title).toBe("Spring planting");
    await chat(wb, "And in April?", id);
    expect(JSON.stringify(wb.model.requests[1].body.messages)).not.toContain("Spring planting");

    expect((await json<SessionSummary>(await patch(wb, id, { title: null }))).title).toBe("What should I plant in March?");
  });

  it("pinned sessions come first; bad input is a 400, an unknown session a 404", async () => {
    wb = await startWorkbench();
    await writeSessionFile(wb.dataRoot, "old-one", 2, qa, new Date("2026-01-01T00:00:00Z"));
    await writeSessionFile(wb.dataRoot, "new-one", 2, qa, new Date("2026-03-01T00:00:00Z"));
    expect((await list(wb)).map((s) => s.id)).toEqual(["new-one", "old-one"]);
    expect((await patch(wb, "old-one", { pinned: true })).status).toBe(200);
    expect((await list(wb)).map((s) => [s.id, s.pinned])).toEqual([["old-one", true], ["new-one", false]]);

    for (const bad of [{ pinned: "yes" }, {}, { title: "x".repeat(201) }, { color: "red" }, { title: 5 }]) {
      expect({ bad, status: (await patch(wb, "old-one", bad)).status }).toEqual({ bad, status: 400 });
    }
    expect((await patch(wb, "no-such-session", { pinned: true })).status).toBe(404);
    expect((await patch(wb, "bad.id", { pinned: true })).status).toBe(400);
  });
});

describe("delete and undo", () => {
  it("delete moves the file to the trash; undo restores it byte for byte", async () => {
    wb = await startWorkbench();
    const file = await writeSessionFile(wb.dataRoot, "to-delete", 3, qa);
    const bytes = await readFile(file);
    const deleted = await json<SessionDeleteReply>(await fetch(`${wb.url}/api/sessions/to-delete`, { method: "DELETE" }));
    expect(deleted.trash).toMatch(/^to-delete--\d{13}\.jsonl$/);
    expect((await list(wb)).map((s) => s.id)).not.toContain("to-delete");
    expect((await fetch(`${wb.url}/api/sessions/to-delete`)).status).toBe(404);
    expect(await readFile(join(wb.dataRoot, "sessions/.trash", deleted.trash))).toEqual(bytes);

    const restored = await postJson(`${wb.url}/api/sessions/to-delete/restore`, { trash: deleted.trash });
    expect(restored.status).toBe(200);
    expect(await readFile(file)).toEqual(bytes);
    expect((await list(wb)).map((s) => s.id)).toContain("to-delete");
    // Once restored, the trash no longer holds it; a made-up trash name is refused.
    expect((await postJson(`${wb.url}/api/sessions/to-delete/restore`, { trash: deleted.trash })).status).toBe(404);
    expect((await postJson(`${wb.url}/api/sessions/to-delete/restore`, { trash: "../../KEY.md" })).status).toBe(400);
  });

  it("undo never overwrites a session that took the id meanwhile", async () => {
    wb = await startWorkbench();
    await writeSessionFile(wb.dataRoot, "reused", 1, qa);
    const { trash } = await json<SessionDeleteReply>(await fetch(`${wb.url}/api/sessions/reused`, { method: "DELETE" }));
    const newer = await writeSessionFile(wb.dataRoot, "reused", 2, (i) => ({ user: `new ${i}`, answer: "new" }));
    const newerBytes = await readFile(newer);
    const restored = await postJson(`${wb.url}/api/sessions/reused/restore`, { trash });
    expect(restored.status).toBe(409);
    expect(await readFile(newer)).toEqual(newerBytes);
    expect(await readFile(join(wb.dataRoot, "sessions/.trash", trash), "utf8")).toContain("Question 1");
  });
});

describe("search", () => {
  it("finds a word from turn 15 of an old session, names the turn, and shows it in context", async () => {
    wb = await startWorkbench();
    for (let s = 0; s < 30; s++) await writeSessionFile(wb.dataRoot, `garden-${s}`, 20, qa, new Date(Date.UTC(2026, 0, 1 + s)));
    await writeSessionFile(wb.dataRoot, "the-old-one", 20, (i) => (i === 15 ? { user: "Which rootstock for the quince?", answer: "Quince A suits a small garden." } : qa(i)), new Date("2025-06-01T00:00:00Z"));
    const search = (q: string) => fetch(`${wb!.url}/api/sessions/search?q=${encodeURIComponent(q)}`).then((r) => json<SessionSearchReply>(r));

    const found = await search("QUINCE rootstock");
    expect(found.searched).toBe(31);
    expect(found.results).toEqual([{ id: "the-old-one", title: "Question 1 about the garden", updated_at: expect.any(String), turn: 15, snippet: expect.stringContaining("Which rootstock for the quince?") }]);
    // The words in different turns: the session matches, at the first turn with the first word.
    expect((await search("quince tomatoes")).results.map((r) => r.turn)).toEqual([15]);
    expect((await search("nothing-like-this")).results).toEqual([]);
    expect((await fetch(`${wb.url}/api/sessions/search?q=`)).status).toBe(400);
  });

  it("sees a new turn of a session at once (the index follows the file)", async () => {
    wb = await startWorkbench({ script: [{ content: "The heron is back." }] });
    await writeSessionFile(wb.dataRoot, "s1", 2, qa);
    expect((await json<SessionSearchReply>(await fetch(`${wb.url}/api/sessions/search?q=heron`))).results).toEqual([]);
    await chat(wb, "Any birds?", "s1");
    expect((await json<SessionSearchReply>(await fetch(`${wb.url}/api/sessions/search?q=heron`))).results).toMatchObject([{ id: "s1", turn: 3 }]);
  });
});

describe("export and import", () => {
  it("exports Markdown and JSON; importing the JSON makes a new session with the same entries that takes new turns", async () => {
    wb = await startWorkbench({
      script: [{ toolCalls: [{ name: "read_file", args: { path: "memory/MEMORY.md" } }] }, { content: "It says **hello**." }, { content: "Continued." }],
    });
    const id = sessionIdOf(await chat(wb, "What is in my memory?"));
    await patch(wb, id, { title: "Memory check" });

    const md = await fetch(`${wb.url}/api/sessions/${id}/export?format=md`);
    expect(md.headers.get("content-type")).toMatch(/^text\/markdown/);
    // Named after its title (an ASCII fallback, and the title itself for browsers that read filename*).
    expect(md.headers.get("content-disposition")).toBe(`attachment; filename="Memory check.md"; filename*=UTF-8''Memory%20check.md`);
    await patch(wb, id, { title: "Café: «plans» / 2026?" });
    const named = await fetch(`${wb.url}/api/sessions/${id}/export?format=json`);
    expect(named.headers.get("content-disposition")).toBe(`attachment; filename="Caf_ _plans_ - 2026.json"; filename*=UTF-8''Caf%C3%A9%20%C2%ABplans%C2%BB%20-%202026.json`);
    await patch(wb, id, { title: "Memory check" });
    const text = await md.text();
    expect(text).toMatch(/^# Memory check\n/);
    expect(text).toContain("### You\n\nWhat is in my memory?");
    expect(text).toContain("**Tool call** `read_file`");
    expect(text).toContain("### Assistant\n\nIt says **hello**.");

    const exported = await json<SessionExport>(await fetch(`${wb.url}/api/sessions/${id}/export?format=json`));
    expect(exported).toMatchObject({ format: "mini-openclaw-session", version: 2, id, title: "Memory check" });
    const imported = await postJson(`${wb.url}/api/sessions/import`, exported);
    expect(imported.status).toBe(201);
    const summary = await json<SessionSummary>(imported);
    expect(summary.id).not.toBe(id);
    expect(summary.title).toBe("Memory check");
    // The same entries; event ids are numbered afresh (an import never sets the server's clock).
    const withoutIds = (entries: SessionEntry[]) => entries.map((e) => (e.type === "event" ? { ...e, id: undefined, first_id: undefined } : e));
    const importedEntries = (await fetchSession(wb.url, summary.id)).entries;
    expect(withoutIds(importedEntries)).toEqual(withoutIds((await fetchSession(wb.url, id)).entries));
    const ids = importedEntries.flatMap((e) => (e.type === "event" && e.id !== undefined ? [e.id] : []));
    expect(ids.length).toBeGreaterThan(0);
    ids.forEach((n, i) => expect(n).toBeGreaterThan(i === 0 ? 0 : ids[i - 1]));
    expect(ids.at(-1)).toBeLessThan(100);

    await chat(wb, "Go on", summary.id);
    const sent = wb.model.requests[2].body.messages.map((m) => m.role);
    expect(sent).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
  });

  it("an import that is not an export, or holds an invalid entry, is a 400 and writes nothing", async () => {
    wb = await startWorkbench();
    const before = (await list(wb)).length;
    for (const body of [{}, { format: "other" }, { format: "mini-openclaw-session", version: 3, entries: [] }, { format: "mini-openclaw-session", version: 2, entries: [{ type: "user" }] }]) {
      const response = await postJson(`${wb.url}/api/sessions/import`, body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error.length).toBeGreaterThan(10);
    }
    expect((await list(wb)).length).toBe(before);
  });

  it("an import holds its messages to chat's limit: a 20 MB message is a 413 with the reason, and no session is made", async () => {
    wb = await startWorkbench();
    const before = (await list(wb)).length;
    const ts = new Date().toISOString();
    const body = { format: "mini-openclaw-session", version: 2, id: "x", title: "big", exported_at: ts, entries: [{ type: "user", ts, content: "x".repeat(20 * 1024 * 1024) }] };
    const response = await postJson(`${wb.url}/api/sessions/import`, body);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toMatch(/Entry 1 is a message of 20971520 characters, over the 100000/);
    expect((await list(wb)).length).toBe(before);
  });
});

describe("while a turn runs", () => {
  it("its own session refuses every change with 409; another session's work goes on", async () => {
    wb = await startWorkbench({ script: [{ content: "slow answer", firstByteDelayMs: 1500 }] });
    await writeSessionFile(wb.dataRoot, "other", 2, qa);
    await writeSessionFile(wb.dataRoot, "busy", 2, qa);
    const response = await postJson(`${wb.url}/api/chat`, { message: "take your time", session_id: "busy", stream: true });
    const events = sseEvents(response);
    await events.next(); // the session event: the turn runs
    for (const [method, path, body] of [
      ["PATCH", "/api/sessions/busy", { title: "x" }],
      ["DELETE", "/api/sessions/busy", undefined],
      ["GET", "/api/sessions/busy/export?format=json", undefined],
    ] as const) {
      const r = await fetch(`${wb.url}${path}`, { method, ...(body ? { headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : {}) });
      expect({ path, method, status: r.status }).toEqual({ path, method, status: 409 });
    }
    expect((await patch(wb, "other", { title: "Renamed meanwhile" })).status).toBe(200);
    expect((await fetch(`${wb.url}/api/sessions/other`, { method: "DELETE" })).status).toBe(200);
    for await (const _ of events) {
      // drain to the end of the turn
    }
    expect((await patch(wb, "busy", { title: "Now it can" })).status).toBe(200);
  });
});

describe("branches", () => {
  /** A model that answers each message with what it was asked, so histories are easy to read. */
  const echo = (body: import("../test-support/scripted-model-server.js").ChatRequestBody) => ({ content: `re: ${messageText(lastMessage(body).content)}` });
  const transcript = (body: import("../test-support/scripted-model-server.js").ChatRequestBody) =>
    body.messages.filter((m) => m.role !== "system").map((m) => `${m.role}: ${messageText(m.content)}`);
  const send = async (wb: Workbench, message: string, sessionId: string, parentTurn?: number) => {
    const response = await postJson(`${wb.url}/api/chat`, { message, session_id: sessionId, stream: true, ...(parentTurn !== undefined ? { parent_turn: parentTurn } : {}) });
    expect(response.status).toBe(200);
    for await (const _ of sseEvents(response)) {
      // to the end of the turn
    }
  };
  const withoutMeta = (entries: import("@mini-openclaw/protocol").SessionEntry[]) => entries.filter((e) => e.type !== "meta");

  it("edit and resend makes a branch: the model sees only it; switching back restores the first branch exactly; a new message continues the current one", async () => {
    wb = await startWorkbench({ script: echo });
    const id = sessionIdOf(await chat(wb, "A"));
    await send(wb, "B", id);
    await send(wb, "C", id);
    const before = await fetchSession(wb.url, id);
    expect(before.branch.map((t) => t.turn)).toEqual([1, 2, 3]);

    await send(wb, "B edited", id, 1); // turn 2, edited: follows turn 1
    expect(transcript(wb.model.requests[3].body)).toEqual(["user: A", "assistant: re: A", "user: B edited"]);
    const edited = await fetchSession(wb.url, id);
    expect(edited.branch).toEqual([
      { turn: 1, parent: 0, siblings: [1] },
      { turn: 4, parent: 1, siblings: [2, 4] },
    ]);
    expect(edited.entries.filter((e) => e.type === "user").map((e) => e.type === "user" && e.content)).toEqual(["A", "B edited"]);

    // Switch to the first branch (through turn 2): its turns come back exactly as they were.
    expect((await patch(wb, id, { branch: 2 })).status).toBe(200);
    const back = await fetchSession(wb.url, id);
    expect(back.branch.map((t) => t.turn)).toEqual([1, 2, 3]);
    expect(withoutMeta(back.entries)).toEqual(withoutMeta(before.entries));

    // A message now continues that branch; switching to the edit shows it again.
    await send(wb, "D", id);
    expect(transcript(wb.model.requests[4].body)).toEqual(["user: A", "assistant: re: A", "user: B", "assistant: re: B", "user: C", "assistant: re: C", "user: D"]);
    await patch(wb, id, { branch: 4 });
    expect((await fetchSession(wb.url, id)).branch.map((t) => t.turn)).toEqual([1, 4]);
  });

  it("regenerating the last answer is a sibling of it; forking writes a new session whose history is the branch", async () => {
    wb = await startWorkbench({ script: echo });
    const id = sessionIdOf(await chat(wb, "first"));
    await send(wb, "second", id);
    await send(wb, "second", id, 1); // regenerate turn 2
    const session = await fetchSession(wb.url, id);
    expect(session.branch.at(-1)).toEqual({ turn: 3, parent: 1, siblings: [2, 3] });

    const fork = await postJson(`${wb.url}/api/sessions/${id}/fork`, { turn: 3 });
    expect(fork.status).toBe(201);
    const forked = (await fork.json()) as SessionSummary;
    const forkedSession = await fetchSession(wb.url, forked.id);
    expect(forkedSession.branch.map((t) => t.turn)).toEqual([1, 2]);
    // The fork's turns are numbered anew (1, 2 for the original's 1, 3); parents go, the rest is the same.
    const strip = (entries: typeof session.entries) =>
      withoutMeta(entries).map((e) => (e.type === "user" ? { ...e, parent: undefined, turn: undefined } : e.type === "event" ? { ...e, turn: undefined } : e));
    expect(strip(forkedSession.entries)).toEqual(strip(session.entries));

    await send(wb, "third", forked.id);
    expect(transcript(wb.model.requests.at(-1)!.body)).toEqual(["user: first", "assistant: re: first", "user: second", "assistant: re: second", "user: third"]);
    // The original is untouched by the fork.
    expect((await fetchSession(wb.url, id)).entries).toEqual(session.entries);
  });

  it("a turn that does not exist is a 400 for parent_turn, branch and fork", async () => {
    wb = await startWorkbench({ script: echo });
    const id = sessionIdOf(await chat(wb, "only"));
    expect((await postJson(`${wb.url}/api/chat`, { message: "x", session_id: id, parent_turn: 5 })).status).toBe(400);
    expect((await postJson(`${wb.url}/api/chat`, { message: "x", parent_turn: 2 })).status).toBe(400);
    expect((await postJson(`${wb.url}/api/chat`, { message: "x", session_id: id, parent_turn: -1 })).status).toBe(400);
    expect((await patch(wb, id, { branch: 9 })).status).toBe(400);
    expect((await postJson(`${wb.url}/api/sessions/${id}/fork`, { turn: 2 })).status).toBe(400);
    expect(wb.model.requests).toHaveLength(1);
  });
});

describe("correcting a message without running it again", () => {
  it("the correction is what the model reads from then on, and what the Stage shows; nothing runs", async () => {
    let n = 0;
    wb = await startWorkbench({ script: (body) => ({ content: `answer ${++n} to ${messageText(lastMessage(body).content)}` }) });
    const id = sessionIdOf(await chat(wb, "wether in Paris?"));
    await chat(wb, "and tomorrow?", id);
    const corrected = await patch(wb, id, { edit: { turn: 1, content: "weather in Paris?" } });
    expect(corrected.status).toBe(200);
    expect(wb.model.requests).toHaveLength(2);
    const session = await fetchSession(wb.url, id);
    expect(session.branch.map((t) => t.turn)).toEqual([1, 2]);
    expect(session.entries.find((e) => e.type === "user")).toMatchObject({ content: "weather in Paris?", edited: true });
    // The file keeps the original line; the correction is one more line.
    expect(await readFile(join(wb.dataRoot, `sessions/${id}.jsonl`), "utf8")).toContain('"content":"wether in Paris?"');

    await chat(wb, "thanks", id);
    const sent = wb.model.requests[2].body.messages.filter((m) => m.role === "user").map((m) => messageText(m.content));
    expect(sent).toEqual(["weather in Paris?", "and tomorrow?", "thanks"]);
    expect((await json<SessionSearchReply>(await fetch(`${wb.url}/api/sessions/search?q=weather`))).results).toMatchObject([{ id, turn: 1 }]);

    expect((await patch(wb, id, { edit: { turn: 9, content: "x" } })).status).toBe(400);
    expect((await patch(wb, id, { edit: { turn: 1, content: "  " } })).status).toBe(400);
    expect((await patch(wb, id, { edit: { turn: 1 } })).status).toBe(400);
  });
});
