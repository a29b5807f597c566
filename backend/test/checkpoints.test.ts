/**
 * Every file a tool call changes, whatever made the change, listed per call and put back (issue 30):
 * real turns with the sandbox, the scripted model over real HTTP.
 */
import { chown, lstat, mkdir, readFile, readdir, readlink, rm, stat, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ChangesEvent, ChangesReply, ChatEvent, RewindReply, SessionDetail } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { type ChatRequestBody, messageText, systemPromptOf } from "../test-support/scripted-model-server.js";
import { sandboxExpected } from "../test-support/tool-harness.js";
import { chat, fetchSession, postJson, sessionIdOf, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

type Call = { name: string; args: Record<string, unknown> };
const toolMessages = (body: ChatRequestBody) => body.messages.filter((m) => m.role === "tool").map((m) => messageText(m.content));
const roleOf = (body: ChatRequestBody) => /^You are the "([^"]+)" sub-agent/.exec(systemPromptOf(body))?.[1] ?? null;
/** The main agent makes `calls` one per step (a sub-agent `sub` runs its own), then answers. */
const script = (calls: Call[], sub: Call[] = []) => (body: ChatRequestBody) => {
  const done = toolMessages(body);
  const list = roleOf(body) ? sub : calls;
  return done.length < list.length ? { toolCalls: [list[done.length]] } : { content: "done" };
};
const terminal = (command: string): Call => ({ name: "terminal", args: { command } });
const changesOf = (events: ChatEvent[]) => events.filter((e): e is ChangesEvent => e.type === "changes");
const callIdOf = (events: ChatEvent[], i: number) => events.filter((e) => e.type === "tool_call")[i] as { id: string };
const changesApi = async (wb: Workbench, id: string, turn?: number) =>
  (await (await fetch(`${wb.url}/api/sessions/${id}/changes${turn ? `?turn=${turn}` : ""}`)).json()) as ChangesReply;
const revert = (wb: Workbench, body: unknown) => postJson(`${wb.url}/api/changes/revert`, body, { headers: { origin: wb.url } });
const rewind = (wb: Workbench, id: string, body: unknown) => postJson(`${wb.url}/api/sessions/${id}/rewind`, body, { headers: { origin: wb.url } });

/** Writes a file as the user would (through the server's rules, the folder's owner keeps it writable for the sandbox). */
async function seed(wb: Workbench, rel: string, content: string) {
  const path = join(wb.dataRoot, rel);
  await writeFile(path, content);
  const owner = await stat(dirname(path));
  await chown(path, owner.uid, owner.gid);
}
async function seedDir(wb: Workbench, rel: string) {
  const path = join(wb.dataRoot, rel);
  await mkdir(path);
  const owner = await stat(dirname(path));
  await chown(path, owner.uid, owner.gid);
}

/** Bytes a text editor would mangle: CRLF, tabs, UTF-8, no final newline. */
const TRICKY = "line one\r\n\tindented\r\nünïcödé ✓\r\nno newline at the end";

describe.skipIf(!sandboxExpected().available)("changes per tool call", () => {
  it("lists what sed -i, a redirect, rm, Python and a sub-agent changed, each under its call; a read lists nothing", async () => {
    wb = await startWorkbench({
      script: script(
        [
          terminal("sed -i 's/one/ONE/' workspace/notes.txt"),
          terminal("echo remembered > memory/extra.md"),
          terminal("rm skills/get_weather/SKILL.md"),
          { name: "python_repl", args: { code: "open('workspace/from-python.txt', 'w').write('py')" } },
          terminal("cat workspace/notes.txt"),
          { name: "delegate", args: { agent: "analyst", task: "write a file" } },
        ],
        [{ name: "python_repl", args: { code: "open('workspace/by-sub-agent.txt', 'w').write('sub')" } }],
      ),
    });
    await seed(wb, "workspace/notes.txt", TRICKY);
    const events = await chat(wb, "change things");
    expect(events.at(-1)).toMatchObject({ type: "final" });
    const lists = changesOf(events);
    const byCall = Object.fromEntries(lists.map((c) => [c.call_id, c.files.map((f) => `${f.kind} ${f.path}`)]));
    expect(byCall[callIdOf(events, 0).id]).toEqual(["modified workspace/notes.txt"]);
    expect(byCall[callIdOf(events, 1).id]).toEqual(["created memory/extra.md"]);
    expect(byCall[callIdOf(events, 2).id]).toEqual(["deleted skills/get_weather/SKILL.md"]);
    expect(byCall[callIdOf(events, 3).id]).toEqual(["created workspace/from-python.txt"]);
    expect(byCall[callIdOf(events, 4).id]).toBeUndefined();
    const delegateCall = events.find((e) => e.type === "tool_call" && e.name === "delegate") as { id: string };
    expect(byCall[delegateCall.id]).toEqual(["created workspace/by-sub-agent.txt"]);
    expect(lists).toHaveLength(5);

    const id = sessionIdOf(events);
    const listed = await changesApi(wb, id, 1);
    expect(listed.calls.map((c) => c.tool)).toEqual(["terminal", "terminal", "terminal", "python_repl", "delegate"]);
    expect(listed.calls[0].files[0]).toEqual({ path: "workspace/notes.txt", kind: "modified", restorable: true, reverted: false });
    expect((await changesApi(wb, id, 2)).calls).toEqual([]);
    // The session file holds the paths, never the contents.
    const raw = (await readFile(join(wb.dataRoot, "sessions", `${id}.jsonl`), "utf8")).split("\n").filter((l) => l.includes('"type":"changes"'));
    expect(raw).toHaveLength(5);
    for (const line of raw) expect(line).not.toMatch(/ünïcödé|line one|remembered|"py"|"before"|"after"/);
  });

  it("a user's edit between calls is not the next call's change, and its earlier content is not what a revert writes", async () => {
    wb = await startWorkbench({
      script: (body) => {
        const lastUser = body.messages.findLastIndex((m) => m.role === "user");
        const user = messageText(body.messages[lastUser].content);
        if (body.messages.slice(lastUser).some((m) => m.role === "tool")) return { content: "ok" };
        return { toolCalls: [terminal(user.includes("one") ? "printf agent1 > workspace/a.txt" : "printf agent2 > workspace/a.txt && printf c > workspace/c.txt")] };
      },
    });
    const id = sessionIdOf(await chat(wb, "call one"));
    // The user edits a.txt and makes b.txt in the Inspector (the file API).
    for (const [path, content] of [["workspace/a.txt", "user's a"], ["workspace/b.txt", "user's b"]]) {
      expect((await postJson(`${wb.url}/api/files`, { path, content }, { headers: { origin: wb.url } })).status).toBe(200);
    }
    const events = await chat(wb, "call two", id);
    const [change] = changesOf(events);
    expect(change.files.map((f) => `${f.kind} ${f.path}`)).toEqual(["modified workspace/a.txt", "created workspace/c.txt"]);
    expect((await revert(wb, { change: change.change, path: "workspace/a.txt" })).status).toBe(200);
    expect(await readFile(join(wb.dataRoot, "workspace/a.txt"), "utf8")).toBe("user's a");
    expect(await readFile(join(wb.dataRoot, "workspace/b.txt"), "utf8")).toBe("user's b");
  });

  it("revert puts one file back byte for byte and leaves the call's other files alone; the agent is told", async () => {
    wb = await startWorkbench({ script: script([terminal("printf 'new' > workspace/a.txt && printf 'new' > workspace/b.txt")]) });
    await seed(wb, "workspace/a.txt", TRICKY);
    await seed(wb, "workspace/b.txt", "b before");
    const events = await chat(wb, "overwrite both");
    const change = changesOf(events)[0];
    expect(change.files.map((f) => f.path)).toEqual(["workspace/a.txt", "workspace/b.txt"]);
    const reply = await revert(wb, { change: change.change, path: "workspace/a.txt" });
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ reverted: "workspace/a.txt", action: "restored" });
    expect(await readFile(join(wb.dataRoot, "workspace/a.txt"), "utf8")).toBe(TRICKY);
    expect(await readFile(join(wb.dataRoot, "workspace/b.txt"), "utf8")).toBe("new");
    // The list marks the reverted file (back to its state before the call), not the other.
    const listed = await changesApi(wb, sessionIdOf(events), 1);
    expect(listed.calls[0].files.map((f) => [f.path, f.reverted])).toEqual([["workspace/a.txt", true], ["workspace/b.txt", false]]);
    // A second revert of the same file finds it changed since the call (it is the earlier version now).
    expect((await revert(wb, { change: change.change, path: "workspace/a.txt" })).status).toBe(409);
    expect((await revert(wb, { change: "nope~123", path: "workspace/a.txt" })).status).toBe(404);
    expect((await revert(wb, { change: change.change, path: "workspace/c.txt" })).status).toBe(404);

    wb.model.setScript(() => ({ content: "noted" }));
    await chat(wb, "what now?", sessionIdOf(events));
    const told = messageText(wb.model.requests.at(-1)!.body.messages.at(-1)!.content);
    expect(told).toContain("<files_reverted>");
    expect(told).toContain("- workspace/a.txt");
  });

  it("rewind: files only, conversation only, a user's newer edit is a conflict, a user's new file is kept, 409 while a turn runs", async () => {
    wb = await startWorkbench({
      script: (body) => {
        const lastUser = body.messages.findLastIndex((m) => m.role === "user");
        const user = messageText(body.messages[lastUser].content);
        const done = body.messages.slice(lastUser).filter((m) => m.role === "tool").length;
        if (user.includes("first") && done === 0) return { toolCalls: [{ name: "terminal", args: { command: "printf 'turn1' > workspace/doc.txt && rm workspace/gone.txt" } }] };
        if (user.includes("second") && done === 0) return { toolCalls: [{ name: "terminal", args: { command: "printf 'turn2' > workspace/doc.txt && printf x > workspace/made.txt" } }] };
        if (user.includes("slow") && done === 0) return { toolCalls: [{ name: "terminal", args: { command: "sleep 2" } }] };
        return { content: "ok" };
      },
    });
    await seed(wb, "workspace/doc.txt", "original");
    await seed(wb, "workspace/gone.txt", "keep me");
    const id = sessionIdOf(await chat(wb, "first"));
    await chat(wb, "second", id);
    // The user's own file, made after the turns: never touched.
    await seed(wb, "workspace/mine.txt", "user's");
    // The user edits a file turn 2 made: a conflict.
    await seed(wb, "workspace/made.txt", "edited by the user");

    const conflict = await rewind(wb, id, { turn: 1, files: true });
    expect(conflict.status).toBe(409);
    expect(((await conflict.json()) as { conflicts: string[] }).conflicts).toEqual(["workspace/made.txt"]);
    expect(await readFile(join(wb.dataRoot, "workspace/doc.txt"), "utf8")).toBe("turn2");

    const skipped = await rewind(wb, id, { turn: 1, files: true, on_conflict: "skip" });
    expect(skipped.status).toBe(200);
    const body = (await skipped.json()) as RewindReply;
    expect(body.files.restored.sort()).toEqual(["workspace/doc.txt", "workspace/gone.txt"]);
    expect(body.files.skipped.map((s) => s.path)).toEqual(["workspace/made.txt"]);
    expect(body.conversation_leaf).toBeNull();
    expect(await readFile(join(wb.dataRoot, "workspace/doc.txt"), "utf8")).toBe("original");
    expect(await readFile(join(wb.dataRoot, "workspace/gone.txt"), "utf8")).toBe("keep me");
    expect(await readFile(join(wb.dataRoot, "workspace/made.txt"), "utf8")).toBe("edited by the user");
    expect(await readFile(join(wb.dataRoot, "workspace/mine.txt"), "utf8")).toBe("user's");

    // Conversation only: the branch goes back to before turn 2; turn 2 stays as a sibling; the next message branches there.
    const conv = (await (await rewind(wb, id, { turn: 2, conversation: true })).json()) as RewindReply;
    expect(conv.conversation_leaf).toBe(1);
    let session = (await fetchSession(wb.url, id)) as SessionDetail;
    expect(session.branch.map((b) => b.turn)).toEqual([1]);
    await chat(wb, "third", id);
    session = await fetchSession(wb.url, id);
    expect(session.branch.map((b) => b.turn)).toEqual([1, 3]);
    expect(session.branch[1].siblings).toEqual([2, 3]);
    const back = (await (await rewind(wb, id, { turn: 1, conversation: true })).json()) as RewindReply;
    expect(back.conversation_leaf).toBe(0);
    expect((await fetchSession(wb.url, id)).branch).toEqual([]);

    // While a turn runs: 409.
    const running = postJson(`${wb.url}/api/chat`, { message: "slow", session_id: id, stream: false });
    await new Promise((r) => setTimeout(r, 600));
    expect((await rewind(wb, id, { turn: 1, files: true })).status).toBe(409);
    await (await running).json();
    expect((await rewind(wb, id, { turn: 99, files: true })).status).toBe(400);
    expect((await rewind(wb, id, { turn: 1 })).status).toBe(400);
  });

  it("a link swapped in before revert and rewind is replaced, never followed: nothing outside the data root is written", async () => {
    wb = await startWorkbench({ script: script([terminal("printf 'agent' > workspace/target.txt && mkdir -p workspace/sub && printf 'agent' > workspace/sub/f.txt")]) });
    const outside = join(wb.dataRoot, "..", `outside-${Date.now()}`);
    await mkdir(outside);
    await writeFile(join(outside, "victim.txt"), "untouched");
    await seed(wb, "workspace/target.txt", "before");
    await seedDir(wb, "workspace/sub");
    await seed(wb, "workspace/sub/f.txt", "before sub");
    const events = await chat(wb, "write");
    const change = changesOf(events)[0];
    // The file swapped for a link to a file outside; the folder swapped for a link to a folder outside.
    await rm(join(wb.dataRoot, "workspace/target.txt"));
    await symlink(join(outside, "victim.txt"), join(wb.dataRoot, "workspace/target.txt"));
    await rm(join(wb.dataRoot, "workspace/sub"), { recursive: true });
    await symlink(outside, join(wb.dataRoot, "workspace/sub"));
    await writeFile(join(outside, "f.txt"), "outside f");

    const forced = await revert(wb, { change: change.change, path: "workspace/target.txt", force: true });
    expect(forced.status).toBe(200);
    expect((await lstat(join(wb.dataRoot, "workspace/target.txt"))).isSymbolicLink()).toBe(false);
    expect(await readFile(join(wb.dataRoot, "workspace/target.txt"), "utf8")).toBe("before");
    const sub = await revert(wb, { change: change.change, path: "workspace/sub/f.txt", force: true });
    // The folder on its way is a link now: refused, nothing written through it.
    expect([403, 409]).toContain(sub.status);
    const rewound = await rewind(wb, sessionIdOf(events), { turn: 1, files: true, on_conflict: "overwrite" });
    expect(rewound.status).toBe(200);
    expect(await readFile(join(outside, "victim.txt"), "utf8")).toBe("untouched");
    expect(await readFile(join(outside, "f.txt"), "utf8")).toBe("outside f");
    expect(await readdir(outside)).toEqual(["f.txt", "victim.txt"]);
    expect(await readlink(join(wb.dataRoot, "workspace/sub"))).toBe(outside);
  });

  it("past CHECKPOINTS_MAX_MB the oldest calls' records go first; a deleted session's records go with it", async () => {
    const write = (n: number) => terminal(`head -c 700000 /dev/urandom > workspace/blob.bin # ${n}`);
    let n = 0;
    wb = await startWorkbench({ env: { CHECKPOINTS_MAX_MB: "2" }, script: (body) => (body.messages.at(-1)?.role === "tool" ? { content: "ok" } : { toolCalls: [write(++n)] }) });
    const id = sessionIdOf(await chat(wb, "write"));
    for (let i = 0; i < 4; i++) await chat(wb, "again", id);
    const calls = (await changesApi(wb, id)).calls;
    // Five calls of 700 KB each would keep 3.5 MB: the oldest went.
    expect(calls.length).toBeLessThan(5);
    expect(calls.at(-1)!.turn).toBe(5);
    const blobs = async () => {
      let total = 0;
      const dir = join(wb!.dataRoot, ".checkpoints/blobs");
      for (const sub of await readdir(dir)) for (const name of await readdir(join(dir, sub))) total += (await stat(join(dir, sub, name))).size;
      return total;
    };
    expect(await blobs()).toBeLessThanOrEqual(2 * 1024 * 1024 + 100_000);
    const del = await fetch(`${wb.url}/api/sessions/${id}`, { method: "DELETE", headers: { origin: wb.url } });
    expect(del.status).toBe(200);
    expect(await readdir(join(wb.dataRoot, ".checkpoints/sessions"))).toEqual([]);
    // Only the file as it is now stays kept.
    expect(await blobs()).toBeLessThanOrEqual(700_000 + 100_000);
  });

  it("an 11 MB file is listed but not restorable, and the store is out of every tool's reach", async () => {
    wb = await startWorkbench({
      script: script([
        terminal("head -c 11000000 /dev/zero | tr '\\0' a > workspace/big.bin"),
        terminal("printf x > workspace/big.bin"),
        terminal("ls -a; ls .checkpoints 2>&1; find / -name '*.jsonl' -path '*checkpoints*' 2>/dev/null | head -3"),
        { name: "read_file", args: { path: ".checkpoints/sessions/x.jsonl" } },
      ]),
    });
    const events = await chat(wb, "big");
    const [made, shrunk] = changesOf(events);
    expect(made.files).toEqual([{ path: "workspace/big.bin", kind: "created", restorable: true }]);
    expect(shrunk.files[0]).toMatchObject({ path: "workspace/big.bin", kind: "modified", restorable: false, reason: expect.stringMatching(/too large: 11000000 bytes/) });
    expect((await revert(wb, { change: shrunk.change, path: "workspace/big.bin" })).status).toBe(422);
    const results = events.filter((e) => e.type === "tool_result") as Array<{ output: string; ok: boolean }>;
    expect(results[2].output).not.toMatch(/blobs|sessions\/.*\.jsonl/);
    expect(results[2].output).toMatch(/No such file or directory/);
    expect(results[3]).toMatchObject({ ok: false, output: expect.stringContaining(".checkpoints/ is the workbench's store") });
    expect((await fetch(`${wb.url}/api/files?path=.checkpoints/sessions/x.jsonl`)).status).toBe(403);
  });
});
