import { describe, expect, it } from "vitest";
import { matcherMatches, parseHooksFile } from "./hooks-file.js";

const parse = (hooks: unknown, extra: Record<string, unknown> = {}) => parseHooksFile("HOOKS.json", "HOOKS.json", JSON.stringify({ ...extra, hooks }));

describe("HOOKS.json", () => {
  it("reads Claude Code's settings shape, leaving its other keys alone; ids name where each hook is", () => {
    const parsed = parse({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "a.sh", timeout: 5 }, { type: "prompt", prompt: "judge" }] }], Stop: [{ hooks: [{ type: "command", command: "b.sh" }] }] }, { permissions: { allow: [] } });
    expect(parsed).toEqual({
      value: [
        { id: "HOOKS.json#PreToolUse/0/0", event: "PreToolUse", matcher: "Bash", command: "a.sh", timeoutSeconds: 5, source: "HOOKS.json" },
        { id: "HOOKS.json#PreToolUse/0/1", event: "PreToolUse", matcher: "Bash", command: "", timeoutSeconds: 60, source: "HOOKS.json", refused: expect.stringContaining('type "prompt"') },
        { id: "HOOKS.json#Stop/0/0", event: "Stop", command: "b.sh", timeoutSeconds: 60, source: "HOOKS.json" },
      ],
    });
  });

  it("an unknown event, a matcher RE2 cannot read, a command hook with no command and too many hooks are problems", () => {
    expect(parse({ BeforeAll: [] })).toEqual({ problem: expect.stringMatching(/HOOKS\.json: hooks.*the events are SessionStart, UserPromptSubmit/) });
    expect(parse({ PreToolUse: [{ matcher: "(?=x)", hooks: [] }] })).toEqual({ problem: expect.stringContaining("hooks.PreToolUse.0.matcher is not a regular expression RE2 reads") });
    expect(parse({ PreToolUse: [{ hooks: [{ type: "command", command: " " }] }] })).toEqual({ problem: expect.stringContaining("needs a command") });
    expect(parse({ PreToolUse: [{ hooks: Array.from({ length: 201 }, () => ({ type: "command", command: "true" })) }] })).toEqual({ problem: expect.stringContaining("more than 200 hooks") });
    expect(parseHooksFile("HOOKS.json", "HOOKS.json", "{")).toEqual({ problem: expect.stringContaining("not valid JSON") });
  });

  it("matchers: empty or * take all; names and alternations match whole names; patterns run on RE2", () => {
    expect(matcherMatches(undefined, ["terminal"])).toBe(true);
    expect(matcherMatches("*", ["terminal"])).toBe(true);
    expect(matcherMatches("Bash", ["terminal", "Bash"])).toBe(true);
    expect(matcherMatches("Bash", ["read_file", "Read"])).toBe(false);
    expect(matcherMatches("Edit|Write", ["terminal", "Bash", "Write"])).toBe(true);
    expect(matcherMatches("mcp__github__.*", ["mcp__github__create_issue"])).toBe(true);
    expect(matcherMatches("term", ["terminal"])).toBe(false);
    // A pattern that backtracks exponentially elsewhere is linear here.
    expect(matcherMatches("(a+)+$", ["a".repeat(5000) + "!"])).toBe(false);
  });
});
