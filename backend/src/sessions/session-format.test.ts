import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionEntry, StoredEvent } from "@mini-openclaw/protocol";
import { describe, expect, it } from "vitest";
import { parseSessionText } from "./session-format.js";

/** A session written by main before format version 2 (2026-11-23, commit fc6b626): a delegation, a skill, usage, a cut answer. */
const v1Text = readFileSync(join(import.meta.dirname, "../../test/fixtures/v1-session.jsonl"), "utf8");
const events = (entries: SessionEntry[]): StoredEvent[] => entries.flatMap((e) => (e.type === "event" ? [e.event] : []));
const ts = "2026-11-23T00:00:00.000Z";

describe("parseSessionText", () => {
  it("migrates a version-1 file into the events that streamed: steps, a sub-agent's trace, the skill, the cut answer", () => {
    const parsed = parseSessionText(v1Text);
    expect(parsed).toMatchObject({ migrated: true, hasHeader: false, corruptLines: 0, tornLastLine: false });
    expect(parsed.entries.map((e) => e.type)).toEqual(["snapshot", "user", ...Array(15).fill("event"), "user", "event", "event", "user", "event", "event"]);
    const first = events(parsed.entries.slice(0, 17));
    expect(first.map((e) => (e.type === "delegate" ? `delegate:${e.event.type}` : e.type))).toEqual([
      "token",
      "tool_call",
      "delegate:thought",
      "delegate:tool_call",
      "delegate:tool_result",
      "delegate:token",
      "delegate:final",
      "tool_result",
      "thought",
      "tool_call",
      "tool_result",
      "skill",
      "thought",
      "token",
      "final",
    ]);
    const delegateResult = first.find((e) => e.type === "tool_result" && e.name === "delegate");
    expect(delegateResult).toMatchObject({ output: "The notes say: bring an umbrella.", ok: true, details: { agent: "researcher", depth: 1 } });
    expect(delegateResult?.type === "tool_result" && delegateResult.details?.trace).toBeUndefined(); // the trace is the delegate events now
    const calls = first.filter((e) => e.type === "tool_call");
    expect(calls.map((c) => c.type === "tool_call" && [c.id, c.step])).toEqual([["call_delegate", 1], ["call_skill", 2]]);
    expect(first[first.length - 1]).toEqual({ type: "final", content: "It will rain: bring an umbrella.", duration_ms: expect.any(Number) });
    // "thanks" answered; "now cut" cut by the model: its text so far, then the error (no final).
    expect(events(parsed.entries.slice(17))).toEqual([
      { type: "token", content: "You're welcome." },
      { type: "final", content: "You're welcome.", duration_ms: expect.any(Number) },
      { type: "token", content: "This answer will be " },
      { type: "error", code: "model_bad_response", message: expect.stringContaining("broke off mid-answer") },
    ]);
  });

  it("reads a version-1 file that went on in version 2 after a header, and both halves in order", () => {
    const v2 = [
      { type: "header", ts, v: 2 },
      { type: "user", ts, content: "and now?" },
      { type: "event", ts, event: { type: "token", content: "Now " } },
      { type: "event", ts, event: { type: "final", content: "Now this.", duration_ms: 3 } },
    ];
    const parsed = parseSessionText(`${v1Text}${v2.map((e) => JSON.stringify(e)).join("\n")}\n`);
    expect(parsed).toMatchObject({ migrated: true, hasHeader: true, corruptLines: 0 });
    expect(parsed.entries.slice(-3)).toEqual(v2.slice(1));
    expect(parsed.entries.filter((e) => e.type === "user").map((e) => e.type === "user" && e.content)).toEqual([
      "weather for Paris, and ask the researcher",
      "thanks",
      "now cut",
      "and now?",
    ]);
  });

  it("trusts no line: entries of the wrong shape are counted and left out, unknown fields dropped, a torn last line noticed", () => {
    const lines = [
      { type: "header", ts, v: 2 },
      { type: "user", ts, content: "hi" },
      { type: "event", ts, event: { type: "tool_call", id: "c1", name: "terminal" } }, // no input, step, started_at
      { type: "event", ts, event: { type: "no_such_event" } },
      { type: "user", ts, content: 42 },
      { type: "event", ts, event: { type: "final", content: "ok", duration_ms: 1, extra: "dropped" } },
    ];
    const parsed = parseSessionText(`${lines.map((e) => JSON.stringify(e)).join("\n")}\nnot json\n{"type":"ev`);
    expect(parsed.corruptLines).toBe(4);
    expect(parsed.tornLastLine).toBe(true);
    expect(parsed.entries).toEqual([lines[1], { type: "event", ts, event: { type: "final", content: "ok", duration_ms: 1 } }]);
  });
});
