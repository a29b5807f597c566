import type { ChatEvent, SessionEntry, StoredEvent } from "@mini-openclaw/protocol";
import { describe, expect, it } from "vitest";
import { applyEvent, newTurn, turnsFromEntries } from "./turn-model";

const ts = "2026-11-23T00:00:00.000Z";
const stored = (events: StoredEvent[]): SessionEntry[] => events.map((event) => ({ type: "event", ts, event }));
const sub = (event: ChatEvent): StoredEvent => ({ type: "delegate", call_id: "call_d", agent: "researcher", depth: 1, event });

/** A turn as it streamed: a thought, text, a delegation with its trace, a skill, two tools, usage, the answer. */
const streamed: StoredEvent[] = [
  { type: "prefix", changed: ["MEMORY.md"] },
  { type: "thought", content: "Plan: " },
  { type: "thought", content: "ask, then read." },
  { type: "token", content: "Let me check." },
  { type: "usage", input_tokens: 100, output_tokens: 10, cached_tokens: 50 },
  { type: "tool_call", id: "call_d", name: "delegate", input: { agent: "researcher", task: "Look it up." }, step: 1, started_at: 1 },
  { type: "tool_call", id: "call_r", name: "read_file", input: { path: "skills/x/SKILL.md" }, step: 1, started_at: 2 },
  sub({ type: "thought", content: "Looking." }),
  { type: "skill", name: "x", location: "./skills/x/SKILL.md", allowed_tools: ["read_file"] },
  { type: "tool_result", id: "call_r", name: "read_file", output: "---\nname: x\n---", ok: true, duration_ms: 3 },
  sub({ type: "token", content: "Found " }),
  sub({ type: "token", content: "it." }),
  sub({ type: "final", content: "Found it.", duration_ms: 9 }),
  { type: "tool_result", id: "call_d", name: "delegate", output: "Found it.", ok: true, duration_ms: 12, details: { agent: "researcher", depth: 1 } },
  { type: "token", content: "Done: " },
  { type: "token", content: "found it." },
  { type: "usage", input_tokens: 200, output_tokens: 5, cached_tokens: 150 },
  { type: "final", content: "Done: found it.", duration_ms: 40 },
];

describe("turnsFromEntries", () => {
  it("replays a stored turn through applyEvent into the turn that streamed, text pieces joined or not", () => {
    const live = streamed.reduce(applyEvent, newTurn("do it", "t0"));
    const joined: StoredEvent[] = [
      ...streamed.slice(0, 1),
      { type: "thought", content: "Plan: ask, then read." },
      ...streamed.slice(3, 10),
      sub({ type: "token", content: "Found it." }),
      ...streamed.slice(12, 14),
      { type: "token", content: "Done: found it." },
      ...streamed.slice(16),
    ];
    for (const events of [streamed, joined]) {
      const [turn] = turnsFromEntries([{ type: "header", ts, v: 2 }, { type: "user", ts, content: "do it" }, ...stored(events)]);
      expect(turn).toEqual({ ...live, key: turn.key });
    }
    expect(live.status).toBe("done");
    expect(live.usage).toEqual({ input: 300, output: 15, cached: 200 });
    const delegate = live.blocks.find((b) => b.kind === "tool" && b.id === "call_d");
    expect(delegate?.kind === "tool" && delegate.sub?.turn.blocks.map((b) => b.kind)).toEqual(["thought", "text"]);
  });

  it("marks a turn that stopped without its end as interrupted, unless it is the last and still running", () => {
    const entries: SessionEntry[] = [{ type: "user", ts, content: "talk" }, ...stored([{ type: "token", content: "Once upon" }])];
    const [cut] = turnsFromEntries(entries);
    expect(cut.status).toBe("stopped");
    expect(cut.blocks).toEqual([{ kind: "text", text: "Once upon", partial: true, interrupted: true }]);
    expect(turnsFromEntries(entries, true)[0].status).toBe("streaming");
    const [earlier] = turnsFromEntries([...entries, { type: "user", ts, content: "again" }], true);
    expect(earlier.status).toBe("stopped");
  });

  it("shows a failed turn's text as partial, live and replayed alike", () => {
    const events: StoredEvent[] = [
      { type: "token", content: "The answer is " },
      { type: "error", code: "model_bad_response", message: "broke off" },
    ];
    const live = events.reduce(applyEvent, newTurn("q", "t0"));
    const [replayed] = turnsFromEntries([{ type: "user", ts, content: "q" }, ...stored(events)]);
    expect(replayed).toEqual({ ...live, key: replayed.key });
    expect(live.blocks[0]).toEqual({ kind: "text", text: "The answer is ", partial: true });
  });

  it("a late thought moves the end of the streamed text into a thought, live and replayed alike", () => {
    const events: StoredEvent[] = [
      { type: "token", content: "The user wants " },
      { type: "token", content: "a number.\n" },
      { type: "late_thought", chars: 25 },
      { type: "thought", content: "Decided." },
      { type: "token", content: "It is 42." },
      { type: "final", content: "It is 42.", duration_ms: 3 },
    ];
    const live = events.reduce(applyEvent, newTurn("q", "t0"));
    expect(live.blocks).toEqual([
      { kind: "thought", text: "The user wants a number.\nDecided." },
      { kind: "text", text: "It is 42." },
    ]);
    const [replayed] = turnsFromEntries([{ type: "user", ts, content: "q" }, ...stored(events)]);
    expect(replayed).toEqual({ ...live, key: replayed.key });
  });

  it("with blocks: a late thought names the text block it turns into a thought; a call being written shows until its card replaces it", () => {
    const events: StoredEvent[] = [
      { type: "text_start", block: "b1" },
      { type: "token", block: "b1", content: "The user wants a number." },
      { type: "late_thought", block: "b1", chars: 24 },
      { type: "text_end", block: "b1" },
      { type: "thought_start", block: "b2" },
      { type: "thought", block: "b2", content: " Check the file." },
      { type: "thought_end", block: "b2", ms: 1250 },
      { type: "tool_input_start", block: "b3", name: "read_file", call_id: "c1" },
      { type: "tool_input_delta", block: "b3", content: '{"path": "a' },
    ];
    const writing = events.reduce(applyEvent, newTurn("q", "t0"));
    expect(writing.blocks).toEqual([
      { kind: "thought", text: "The user wants a number.", id: "b1" },
      // How long it thought, from its end: shown as "Thought for 1.3 s" rather than its length.
      { kind: "thought", text: " Check the file.", id: "b2", ms: 1250 },
      { kind: "tool_input", id: "b3", name: "read_file", text: '{"path": "a' },
    ]);
    const called = [
      ...events,
      { type: "tool_input_delta", block: "b3", content: '.md"}' },
      { type: "tool_input_end", block: "b3" },
      { type: "tool_call", id: "c1", name: "read_file", input: { path: "a.md" }, step: 1, started_at: 1 },
      { type: "text_start", block: "b4" },
      { type: "token", block: "b4", content: "Done." },
      { type: "text_end", block: "b4" },
      { type: "final", content: "Done.", duration_ms: 3 },
    ] as StoredEvent[];
    const live = called.reduce(applyEvent, newTurn("q", "t0"));
    expect(live.blocks.map((b) => b.kind)).toEqual(["thought", "thought", "tool", "text"]);
    const [replayed] = turnsFromEntries([{ type: "user", ts, content: "q" }, ...stored(called)]);
    expect(replayed).toEqual({ ...live, key: replayed.key });
  });
});

describe("hook runs", () => {
  const run = (over: Partial<Extract<StoredEvent, { type: "hook" }>>): StoredEvent => ({
    type: "hook",
    id: `h${Math.random()}`,
    event: "PreToolUse",
    command: "guard.sh",
    source: "HOOKS.json",
    started_at: 1,
    duration_ms: 4,
    exit_code: 0,
    status: "ok",
    output: "",
    ...over,
  });
  it("stand under the call they acted on (a sub-agent's under its own call), or as a line of the turn; a replay is the same", () => {
    const events: StoredEvent[] = [
      run({ event: "UserPromptSubmit", additional_context: "branch main" }),
      { type: "tool_call", id: "call_t", name: "terminal", input: { command: "ls" }, step: 1, started_at: 2 },
      run({ call_id: "call_t", decision: "allow", reason: "ls reads" }),
      run({ event: "PostToolUse", call_id: "call_t" }),
      { type: "tool_result", id: "call_t", name: "terminal", output: "a", ok: true, duration_ms: 3 },
      { type: "tool_call", id: "call_d", name: "delegate", input: { agent: "researcher", task: "t" }, step: 2, started_at: 3 },
      sub({ type: "tool_call", id: "call_s", name: "read_file", input: { path: "x" }, step: 1, started_at: 4 }),
      sub(run({ call_id: "call_s", decision: "deny", status: "blocked", reason: "no" })),
      run({ event: "Stop", decision: "block", reason: "one more" }),
    ];
    const live = events.reduce(applyEvent, newTurn("go", "t0"));
    expect(live.blocks[0]).toMatchObject({ kind: "hook", run: { event: "UserPromptSubmit" } });
    const tool = live.blocks.find((b) => b.kind === "tool" && b.id === "call_t");
    expect(tool).toMatchObject({ hooks: [{ event: "PreToolUse", decision: "allow" }, { event: "PostToolUse" }] });
    const delegate = live.blocks.find((b) => b.kind === "tool" && b.id === "call_d");
    expect(delegate?.kind === "tool" && delegate.sub?.turn.blocks[0]).toMatchObject({ kind: "tool", id: "call_s", hooks: [{ decision: "deny" }] });
    expect(live.blocks.at(-1)).toMatchObject({ kind: "hook", run: { event: "Stop", decision: "block" } });
    const [replayed] = turnsFromEntries([{ type: "user", ts, content: "go" }, ...stored(events)], true);
    expect(replayed.blocks).toEqual(live.blocks);
  });
});
