/**
 * Hooks through the real workbench: real shell scripts in HOOKS.json (Claude Code's format), run
 * at each point of a turn with the event's JSON on stdin, their decisions taken as Claude Code's
 * contract says, every run an event in the turn's stream and the session file; the model is the
 * scripted server over HTTP, so what reaches the model is read from its requests.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApprovalRequestEvent, ChatEvent, HookRunEvent, HooksReply } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { callsThenAnswer, toolMessages } from "../test-support/mcp-harness.js";
import { lastMessage, messageText, type ModelScript } from "../test-support/scripted-model-server.js";
import { sandboxExpected } from "../test-support/tool-harness.js";
import { chat, fetchSession, jsonOf, postJson, sessionIdOf, sseEvents, startWorkbench, storedEvents, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
let root: string | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

const hooksOf = (events: ChatEvent[]) => events.filter((e): e is HookRunEvent => e.type === "hook");

/** A data root with HOOKS.json and executable scripts under hooks/, made before the workbench starts. */
async function withHooks(hooks: unknown, scripts: Record<string, string> = {}, env: Record<string, string> = {}, script: ModelScript = () => ({ content: "ok" })) {
  root = await mkdtemp(join(tmpdir(), "moc-hooks-"));
  await mkdir(join(root, "hooks"), { recursive: true });
  for (const [name, text] of Object.entries(scripts)) {
    await writeFile(join(root, "hooks", name), text);
    await chmod(join(root, "hooks", name), 0o755);
  }
  await writeFile(join(root, "HOOKS.json"), typeof hooks === "string" ? hooks : JSON.stringify({ hooks }, null, 2));
  wb = await startWorkbench({ dataRoot: root, env, script });
  return wb;
}
const command = (name: string) => `"$CLAUDE_PROJECT_DIR"/hooks/${name}`;
const on = (matcher: string | undefined, name: string, extra: Record<string, unknown> = {}) => [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: "command", command: command(name), ...extra }] }];
// The whole line in one append: hooks of different events run at once, and two writes each (the JSON, then
// the line break) could interleave into one line holding two objects.
const RECORD = `#!/bin/sh\nline=$(cat)\nprintf '%s\\n' "$line" >> "$CLAUDE_PROJECT_DIR/hooks/events.jsonl"\n`;
const recorded = async (dataRoot: string) =>
  (await readFile(join(dataRoot, "hooks/events.jsonl"), "utf8"))
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe.skipIf(!sandboxExpected().available)("hooks", () => {
  it("each event gets Claude Code's JSON on stdin, with a small environment that holds no key", async () => {
    process.env.MOC_TEST_SECRET_TOKEN = "sk-not-for-hooks-123456";
    try {
      const events = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"];
      const dumpEnv = `#!/bin/sh\nenv > "$CLAUDE_PROJECT_DIR/hooks/env.txt"\ncat > /dev/null\n`;
      await withHooks(
        { ...Object.fromEntries(events.map((event) => [event, on(event.endsWith("ToolUse") ? "terminal" : undefined, "record.sh")])), Notification: on(undefined, "env.sh") },
        { "record.sh": RECORD, "env.sh": dumpEnv },
        { APPROVALS: "on" },
        callsThenAnswer([{ name: "terminal", args: { command: "echo from-the-tool > workspace/said.txt && cat workspace/said.txt" } }]),
      );
      const turn = sseEvents(await postJson(`${wb!.url}/api/chat`, { message: "say it", stream: true }));
      const seen: ChatEvent[] = [];
      for await (const event of turn) {
        seen.push(event);
        if (event.type === "approval_request") {
          // Notification hooks run when a call waits: give them a moment, then approve.
          await expect.poll(() => readFile(join(root!, "hooks/env.txt"), "utf8").catch(() => ""), { timeout: 5000 }).toContain("MINI_OPENCLAW_HOOK_EVENT=Notification");
          await fetch(`${wb!.url}/api/approvals/${event.id}`, { method: "POST", headers: { "content-type": "application/json", origin: wb!.url }, body: JSON.stringify({ decision: "approve" }) });
        }
      }
      expect(seen.at(-1)).toMatchObject({ type: "final" });
      const sessionId = sessionIdOf(seen);
      const lines = await recorded(root!);
      expect(lines.map((l) => l.hook_event_name)).toEqual(events);
      for (const line of lines) expect(line).toMatchObject({ session_id: sessionId, cwd: root, transcript_path: join(root!, "sessions", `${sessionId}.jsonl`), turn: 1 });
      const [start, prompt, pre, post, stop] = lines;
      expect(start).toMatchObject({ source: "startup" });
      expect(prompt).toMatchObject({ prompt: "say it" });
      expect(pre).toMatchObject({ tool_name: "terminal", tool_input: { command: "echo from-the-tool > workspace/said.txt && cat workspace/said.txt" }, tool_use_id: expect.any(String) });
      expect(post).toMatchObject({ tool_name: "terminal", tool_use_id: pre.tool_use_id, tool_response: { ok: true, output: expect.stringContaining("from-the-tool") } });
      expect(stop).toMatchObject({ stop_hook_active: false, last_assistant_message: expect.stringContaining("Done:") });
      const env = await readFile(join(root!, "hooks/env.txt"), "utf8");
      expect(env).toContain(`CLAUDE_PROJECT_DIR=${root}`);
      expect(env).not.toContain("sk-not-for-hooks");
      expect(env).not.toContain("test-key");
      expect(env).not.toMatch(/OPENAI/);
      // Every run is in the stream and in the session file, under the call it acted on.
      const stored = hooksOf(storedEvents((await fetchSession(wb!.url, sessionId)).entries));
      expect(new Set(stored.map((h) => h.event))).toEqual(new Set([...events, "Notification"]));
      expect(stored.find((h) => h.event === "PreToolUse")).toMatchObject({ call_id: pre.tool_use_id, status: "ok", exit_code: 0, source: "HOOKS.json" });
    } finally {
      delete process.env.MOC_TEST_SECRET_TOKEN;
    }
  });

  it("PreToolUse denies by exit 2 (stderr is the reason the model reads) and by JSON; nothing runs", async () => {
    await withHooks(
      { PreToolUse: [...on("terminal", "exit2.sh"), ...on("python_repl", "json-deny.sh")] },
      { "exit2.sh": "#!/bin/sh\necho 'no pushes to main' >&2\nexit 2\n", "json-deny.sh": `#!/bin/sh\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no"}}'\n` },
      {},
      callsThenAnswer([
        { name: "terminal", args: { command: "touch workspace/by-terminal" } },
        { name: "python_repl", args: { code: "open('workspace/by-python','w').write('x')" } },
      ]),
    );
    const events = await chat(wb!, "go");
    const [terminal, python] = events.filter((e) => e.type === "tool_result");
    expect(terminal).toMatchObject({ ok: false, output: expect.stringContaining("a PreToolUse hook refused it: no pushes to main") });
    expect(python).toMatchObject({ ok: false, output: expect.stringContaining("a PreToolUse hook refused it: json says no") });
    expect(hooksOf(events).map((h) => [h.status, h.decision, h.reason])).toEqual([
      ["blocked", "deny", "no pushes to main"],
      ["ok", "deny", "json says no"],
    ]);
    await expect(readFile(join(root!, "workspace/by-terminal"))).rejects.toThrow();
    await expect(readFile(join(root!, "workspace/by-python"))).rejects.toThrow();
    expect(toolMessages(wb!.model.requests[1].body)[0]).toContain("no pushes to main");
    // The export says so too.
    const markdown = await (await fetch(`${wb!.url}/api/sessions/${sessionIdOf(events)}/export?format=md`)).text();
    expect(markdown).toContain("*Hook PreToolUse (`\"$CLAUDE_PROJECT_DIR\"/hooks/exit2.sh`): deny");
  });

  it("PreToolUse allow runs a call the rules would ask about; ask puts even read_file before the user", async () => {
    const allow = `#!/bin/sh\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"echo is fine"}}'\n`;
    const ask = `#!/bin/sh\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"reading the soul needs a yes"}}'\n`;
    await withHooks({ PreToolUse: [...on("Bash", "allow.sh"), ...on("Read", "ask.sh")] }, { "allow.sh": allow, "ask.sh": ask }, { APPROVALS: "on" }, callsThenAnswer([
      { name: "terminal", args: { command: "touch workspace/allowed && echo allowed-by-hook" } },
      { name: "read_file", args: { path: "workspace/SOUL.md" } },
    ]));
    const stream = sseEvents(await postJson(`${wb!.url}/api/chat`, { message: "go", stream: true }));
    const seen: ChatEvent[] = [];
    for await (const event of stream) {
      seen.push(event);
      if (event.type === "approval_request") {
        expect(event).toMatchObject({ tool: "read_file", proposal: "", hook_reason: "reading the soul needs a yes", subject: expect.stringContaining("workspace/SOUL.md") });
        await fetch(`${wb!.url}/api/approvals/${event.id}`, { method: "POST", headers: { "content-type": "application/json", origin: wb!.url }, body: JSON.stringify({ decision: "approve" }) });
      }
    }
    const requests = seen.filter((e): e is ApprovalRequestEvent => e.type === "approval_request");
    expect(requests.map((r) => r.tool)).toEqual(["read_file"]);
    const [echo, read] = seen.filter((e) => e.type === "tool_result");
    expect(echo).toMatchObject({ ok: true, output: expect.stringContaining("allowed-by-hook") });
    expect(read).toMatchObject({ ok: true });
    expect(seen.filter((e) => e.type === "approval").map((e) => e.type === "approval" && [e.by, e.decision, e.rule ?? null])).toEqual([
      ["rule", "approved", "PreToolUse hook: echo is fine"],
      ["user", "approved", null],
    ]);
  });

  it("PreToolUse rewrites the input: the tool runs the rewritten command, checked like the model's", async () => {
    const rewrite = `#!/bin/sh\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo rewritten > workspace/rw.txt"}}}'\n`;
    await withHooks({ PreToolUse: on("Bash", "rewrite.sh") }, { "rewrite.sh": rewrite }, {}, callsThenAnswer([{ name: "terminal", args: { command: "echo original > workspace/rw.txt" } }]));
    const events = await chat(wb!, "write it");
    expect(await readFile(join(root!, "workspace/rw.txt"), "utf8")).toBe("rewritten\n");
    expect(hooksOf(events)[0]).toMatchObject({ event: "PreToolUse", updated_input: { command: "echo rewritten > workspace/rw.txt" } });
    // The call as the model made it stays in the record; the hook's line says what ran.
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({ input: { command: "echo original > workspace/rw.txt" } });
  });

  it("PostToolUse context reaches the model's next request; a block marks the result failed", async () => {
    const context = `#!/bin/sh\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint passed on 3 files"}}'\n`;
    const block = `#!/bin/sh\necho '{"decision":"block","reason":"the output shows a failing test"}'\n`;
    await withHooks({ PostToolUse: [...on("terminal", "context.sh"), ...on("python_repl", "block.sh")] }, { "context.sh": context, "block.sh": block }, {}, callsThenAnswer([
      { name: "terminal", args: { command: "echo checked" } },
      { name: "python_repl", args: { code: "print('ran')" } },
    ]));
    const events = await chat(wb!, "check");
    const [terminal, python] = events.filter((e) => e.type === "tool_result");
    expect(terminal).toMatchObject({ ok: true, output: expect.stringContaining("[Hook context: lint passed on 3 files]") });
    expect(python).toMatchObject({ ok: false, output: expect.stringContaining("a failure: the output shows a failing test") });
    expect(toolMessages(wb!.model.requests[1].body)[0]).toContain("[Hook context: lint passed on 3 files]");
    expect(toolMessages(wb!.model.requests[2].body)[1]).toContain("the output shows a failing test");
    // The next turn's history, derived from the session file, reads the same.
    await chat(wb!, "again", sessionIdOf(events));
    const history = toolMessages(wb!.model.requests.at(-1)!.body);
    expect(history[0]).toContain("[Hook context: lint passed on 3 files]");
  });

  it("UserPromptSubmit adds context to the message, or blocks it: the model never gets a blocked one", async () => {
    const script = `#!/bin/sh\nif grep -q secret-plan; then echo 'that message names the plan' >&2; exit 2; fi\necho 'branch: main; open tickets: 2'\n`;
    await withHooks({ UserPromptSubmit: on(undefined, "prompt.sh") }, { "prompt.sh": script });
    const first = await chat(wb!, "hello");
    expect(messageText(lastMessage(wb!.model.requests[0].body).content)).toContain("hello\n\n[Hook context: branch: main; open tickets: 2]");
    const sessionId = sessionIdOf(first);
    const blocked = await chat(wb!, "the secret-plan is", sessionId);
    expect(blocked.at(-1)).toMatchObject({ type: "error", code: "hook_stopped", message: expect.stringContaining("that message names the plan") });
    expect(wb!.model.requests).toHaveLength(1);
    await chat(wb!, "next", sessionId);
    const sent = wb!.model.requests[1].body.messages.map((m) => messageText(m.content)).join("\n");
    expect(sent).not.toContain("secret-plan");
    expect(sent).toContain("next");
    // The first message as the model had it, context and all, derived from the stored hook runs.
    expect(messageText(wb!.model.requests[1].body.messages[1].content)).toBe(messageText(lastMessage(wb!.model.requests[0].body).content));
  });

  it("a Stop hook that always says go on makes the agent go on a bounded number of times", async () => {
    await withHooks({ Stop: on(undefined, "more.sh") }, { "more.sh": "#!/bin/sh\necho 'write one more line' >&2\nexit 2\n" }, {}, (_body, i) => ({ content: `line ${i + 1}` }));
    const events = await chat(wb!, "write");
    expect(events.at(-1)).toMatchObject({ type: "final", content: "line 6" });
    expect(wb!.model.requests).toHaveLength(6);
    expect(messageText(lastMessage(wb!.model.requests[1].body).content)).toContain("A Stop hook asks you to continue before you finish: write one more line");
    const stops = hooksOf(events);
    expect(stops).toHaveLength(6);
    expect(stops.slice(0, 5).every((h) => h.decision === "block")).toBe(true);
    expect(stops[5]).toMatchObject({ note: expect.stringContaining("not acted on") });
    expect(stops[5].decision).toBeUndefined();
    // The next turn's history, derived from the session file, is the conversation the model had.
    await chat(wb!, "thanks", sessionIdOf(events));
    const live = wb!.model.requests[5].body.messages.map((m) => [m.role, messageText(m.content)]);
    const replayed = wb!.model.requests[6].body.messages.map((m) => [m.role, messageText(m.content)]);
    expect(replayed.slice(1, live.length)).toEqual(live.slice(1));
    expect(replayed[live.length]).toEqual(["assistant", "line 6"]);
  });

  it("the other events fire with their fields: SubagentStop, PreCompact, Notification and TaskRun for a task, SessionEnd, MemoryWrite", async () => {
    const others = ["SubagentStop", "PreCompact", "Notification", "TaskRun", "SessionEnd", "MemoryWrite"];
    const script: ModelScript = (body) => {
      const system = body.messages[0]?.role === "system" ? messageText(body.messages[0].content) : "";
      if (system.includes('"researcher" sub-agent')) return { content: "the note is in memory" };
      if (!body.tools?.length) return { content: "A summary of the conversation." };
      const asked = messageText(lastMessage(body).content);
      const results = toolMessages(body);
      if (asked.startsWith("delegate")) return { toolCalls: [{ name: "delegate", args: { agent: "researcher", task: "find the note" } }] };
      if (asked.startsWith("remember")) return { toolCalls: [{ name: "terminal", args: { command: "echo '- likes tea' >> memory/MEMORY.md" } }] };
      return { content: results.length ? "done" : "ok" };
    };
    await withHooks(Object.fromEntries(others.map((event) => [event, on(undefined, "record.sh")])), { "record.sh": RECORD }, {}, script);
    const first = await chat(wb!, "delegate it");
    const sessionId = sessionIdOf(first);
    // The sub-agent's stop, shown in its trace.
    const delegated = first.filter((e) => e.type === "delegate").map((e) => e.type === "delegate" && e.event);
    expect(delegated.some((e) => e && e.type === "hook" && e.event === "SubagentStop")).toBe(true);
    await chat(wb!, "remember that I like tea", sessionId);
    await chat(wb!, "one more", sessionId);
    expect((await postJson(`${wb!.url}/api/sessions/${sessionId}/compact`, {}, { headers: { origin: wb!.url } })).status).toBe(200);
    expect((await postJson(`${wb!.url}/api/files`, { path: "memory/MEMORY.md", content: "# Memory\n- by hand\n" }, { headers: { origin: wb!.url } })).status).toBe(200);
    const task = await jsonOf<{ id: string }>(postJson(`${wb!.url}/api/tasks`, { name: "Hooked", prompt: "hello", schedule: { kind: "once", at: new Date(Date.now() + 3_600_000).toISOString() } }, { headers: { origin: wb!.url } }));
    expect((await postJson(`${wb!.url}/api/tasks/${task.id}/run`, {}, { headers: { origin: wb!.url } })).status).toBe(202);
    await expect.poll(async () => (await recorded(root!).catch(() => [])).some((l) => l.hook_event_name === "TaskRun"), { timeout: 10_000 }).toBe(true);
    expect((await fetch(`${wb!.url}/api/sessions/${sessionId}`, { method: "DELETE", headers: { origin: wb!.url } })).status).toBe(200);
    await expect.poll(async () => (await recorded(root!)).some((l) => l.hook_event_name === "SessionEnd"), { timeout: 5000 }).toBe(true);
    await expect.poll(async () => (await recorded(root!)).filter((l) => l.hook_event_name === "MemoryWrite").length, { timeout: 5000 }).toBe(2);
    const lines = await recorded(root!);
    const of = (event: string) => lines.filter((l) => l.hook_event_name === event);
    expect(of("SubagentStop")[0]).toMatchObject({ session_id: sessionId, agent_type: "researcher", stop_hook_active: false, last_assistant_message: "the note is in memory" });
    expect(of("MemoryWrite")).toEqual(expect.arrayContaining([expect.objectContaining({ by: "agent", tool_name: "terminal", file_paths: ["memory/MEMORY.md"] }), expect.objectContaining({ by: "user", file_paths: ["memory/MEMORY.md"] })]));
    expect(of("PreCompact")[0]).toMatchObject({ session_id: sessionId, trigger: "manual" });
    expect(of("TaskRun")[0]).toMatchObject({ task_id: task.id, task_name: "Hooked", trigger: "manual", outcome: "done" });
    expect(of("Notification")[0]).toMatchObject({ notification_type: "task_run", message: 'The task "Hooked" finished: done' });
    expect(of("SessionEnd")[0]).toMatchObject({ session_id: sessionId, reason: "deleted" });
    // Runs outside a turn are in the Hooks view.
    const view = await jsonOf<HooksReply>(fetch(`${wb!.url}/api/hooks`));
    expect(new Set(view.runs.map((r) => r.event))).toEqual(new Set(others));
  });

  it("a Claude Code settings.json with Bash and Edit|Write matchers works unchanged", async () => {
    const settings = {
      permissions: { allow: ["Bash(npm run lint)"], deny: [] },
      env: { SOME_SETTING: "1" },
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/hooks/record.sh', timeout: 30 }] }],
        PostToolUse: [{ matcher: "Edit|MultiEdit|Write", hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/hooks/record.sh' }] }],
      },
    };
    await withHooks(JSON.stringify(settings, null, 2), { "record.sh": RECORD }, {}, callsThenAnswer([{ name: "terminal", args: { command: "echo text > workspace/written.md" } }]));
    await chat(wb!, "write a file");
    const lines = await recorded(root!);
    expect(lines.map((l) => [l.hook_event_name, l.tool_name])).toEqual([
      ["PreToolUse", "terminal"],
      ["PostToolUse", "terminal"],
    ]);
    expect(lines[1]).toMatchObject({ tool_input: { command: "echo text > workspace/written.md", file_path: "workspace/written.md" } });
    const listed = await jsonOf<HooksReply>(fetch(`${wb!.url}/api/hooks`));
    expect(listed.problem).toBeNull();
    expect(listed.hooks.map((h) => [h.event, h.matcher])).toEqual([
      ["PreToolUse", "Bash"],
      ["PostToolUse", "Edit|MultiEdit|Write"],
    ]);
  });
});
