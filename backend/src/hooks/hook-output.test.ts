import { describe, expect, it } from "vitest";
import { readHookOutput } from "./hook-output.js";

const ran = (exitCode: number | null, stdout = "", stderr = "", failure?: string) => ({ exitCode, stdout, stderr, durationMs: 1, ...(failure ? { failure } : {}) });

// Claude Code's hooks reference: exit 0 goes on, 2 blocks with stderr, others are non-blocking errors;
// JSON on stdout carries `continue`, `decision`/`reason` and `hookSpecificOutput`.
describe("a hook's exit code and output, read as Claude Code's contract says", () => {
  it("exit 2 blocks with stderr as the reason, as each event takes a block", () => {
    expect(readHookOutput("PreToolUse", ran(2, "", "no pushes\n"))).toMatchObject({ status: "blocked", decision: "deny", reason: "no pushes" });
    expect(readHookOutput("UserPromptSubmit", ran(2, "", "secret"))).toMatchObject({ status: "blocked", decision: "block" });
    expect(readHookOutput("Stop", ran(2, "", "go on"))).toMatchObject({ decision: "block", reason: "go on" });
    // Nothing to block after a notification: shown, decides nothing.
    expect(readHookOutput("Notification", ran(2, "", "x")).decision).toBeUndefined();
  });

  it("any other exit is a non-blocking error, named for what it usually means", () => {
    expect(readHookOutput("PreToolUse", ran(127))).toMatchObject({ status: "failed", error: "the command was not found (exit 127)" });
    expect(readHookOutput("PreToolUse", ran(1, "", "oops"))).toMatchObject({ status: "failed", error: "it exited with 1", reason: "oops" });
    expect(readHookOutput("PreToolUse", ran(null, "", "", "it ran past its timeout")).decision).toBeUndefined();
  });

  it("JSON: permissionDecision, updatedInput and additionalContext for PreToolUse; legacy approve/block", () => {
    const json = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "sure?", updatedInput: { command: "ls" }, additionalContext: "note" } };
    expect(readHookOutput("PreToolUse", ran(0, JSON.stringify(json)))).toMatchObject({ status: "ok", decision: "ask", reason: "sure?", updatedInput: { command: "ls" }, additionalContext: "note" });
    expect(readHookOutput("PreToolUse", ran(0, '{"decision":"approve"}')).decision).toBe("allow");
    expect(readHookOutput("PreToolUse", ran(0, '{"decision":"block","reason":"r"}'))).toMatchObject({ decision: "deny", reason: "r" });
  });

  it("a decision an event cannot take is not taken; continue:false stops; plain stdout is context only where Claude Code makes it so", () => {
    expect(readHookOutput("PostToolUse", ran(0, '{"hookSpecificOutput":{"permissionDecision":"deny"}}')).decision).toBeUndefined();
    expect(readHookOutput("PostToolUse", ran(0, '{"continue":false,"stopReason":"enough"}'))).toMatchObject({ decision: "stop", reason: "enough" });
    expect(readHookOutput("UserPromptSubmit", ran(0, "branch main\n")).additionalContext).toBe("branch main");
    expect(readHookOutput("PostToolUse", ran(0, "plain words\n")).additionalContext).toBeUndefined();
    expect(readHookOutput("Stop", ran(0, '{"suppressOutput":true}')).suppressOutput).toBe(true);
  });

  it("invalid JSON, or JSON that is not an object, is a failed run that decides nothing", () => {
    expect(readHookOutput("PreToolUse", ran(0, '{"decision": '))).toMatchObject({ status: "failed", error: expect.stringContaining("invalid JSON") });
    expect(readHookOutput("PreToolUse", ran(0, "{ }")).status).toBe("ok");
    expect(readHookOutput("SessionStart", ran(0, "x".repeat(20_000))).additionalContext).toHaveLength(10_000 + "\n[cut at 10000 characters]".length);
  });
});
