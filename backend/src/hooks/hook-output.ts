/**
 * What a hook's run means, by Claude Code's contract: exit 0 goes on (stdout may be JSON with a
 * decision, or, for `UserPromptSubmit` and `SessionStart`, plain text added to the model's context),
 * exit 2 blocks with stderr as the reason, any other exit is a non-blocking error. JSON fields:
 * `continue`/`stopReason`, `suppressOutput`, `decision`/`reason`, and `hookSpecificOutput` with
 * `permissionDecision`/`permissionDecisionReason`, `updatedInput` and `additionalContext`. A decision
 * an event cannot take (a `permissionDecision` after the tool ran) is not taken.
 */
import type { HookDecision, HookEventName } from "@mini-openclaw/protocol";
import type { HookProcessResult } from "./run-hook-command.js";

/** Claude Code's cap on context a hook adds. */
export const MAX_CONTEXT_CHARS = 10_000;

export interface HookVerdict {
  status: "ok" | "blocked" | "failed";
  decision?: HookDecision;
  reason?: string;
  additionalContext?: string;
  updatedInput?: Record<string, unknown>;
  error?: string;
  suppressOutput: boolean;
}

/** What exit 2 and `decision: "block"` mean at each event (absent: nothing to block there). */
const BLOCKS: Partial<Record<HookEventName, HookDecision>> = {
  PreToolUse: "deny",
  UserPromptSubmit: "block",
  PostToolUse: "block",
  Stop: "block",
  SubagentStop: "block",
};

/** Events whose plain stdout (exit 0, not JSON) is context for the model, as in Claude Code. */
const PLAIN_CONTEXT: ReadonlySet<HookEventName> = new Set(["UserPromptSubmit", "SessionStart"]);
/** Events whose `additionalContext` reaches the model. */
const TAKES_CONTEXT: ReadonlySet<HookEventName> = new Set(["UserPromptSubmit", "SessionStart", "PreToolUse", "PostToolUse"]);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() ? value.trim() : undefined);
const capped = (value: string) => (value.length > MAX_CONTEXT_CHARS ? `${value.slice(0, MAX_CONTEXT_CHARS)}\n[cut at ${MAX_CONTEXT_CHARS} characters]` : value);

export function readHookOutput(event: HookEventName, run: HookProcessResult): HookVerdict {
  if (run.failure) return { status: "failed", error: run.failure, suppressOutput: false };
  if (run.exitCode === 2) {
    const reason = text(run.stderr) ?? "the hook exited with 2 and gave no reason on stderr";
    return { status: "blocked", ...(BLOCKS[event] ? { decision: BLOCKS[event] } : {}), reason, suppressOutput: false };
  }
  if (run.exitCode !== 0) {
    const why = run.exitCode === 127 ? "the command was not found (exit 127)" : run.exitCode === 126 ? "the command is not executable (exit 126)" : `it exited with ${run.exitCode}`;
    return { status: "failed", error: why, ...(text(run.stderr) ? { reason: text(run.stderr) } : {}), suppressOutput: false };
  }
  const stdout = run.stdout.trim();
  if (!stdout.startsWith("{")) {
    return { status: "ok", ...(stdout && PLAIN_CONTEXT.has(event) ? { additionalContext: capped(stdout) } : {}), suppressOutput: false };
  }
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch (err) {
    return { status: "failed", error: `it printed invalid JSON (${(err as Error).message})`, suppressOutput: false };
  }
  if (!isObject(json)) return { status: "failed", error: "it printed JSON that is not an object", suppressOutput: false };
  const specific = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const verdict: HookVerdict = { status: "ok", suppressOutput: json.suppressOutput === true };
  const context = text(specific.additionalContext);
  if (context && TAKES_CONTEXT.has(event)) verdict.additionalContext = capped(context);
  if (json.continue === false) {
    verdict.decision = "stop";
    verdict.reason = text(json.stopReason) ?? text(json.reason) ?? "a hook said not to continue";
    return verdict;
  }
  if (event === "PreToolUse") {
    const permission = specific.permissionDecision ?? (json.decision === "approve" ? "allow" : json.decision === "block" ? "deny" : undefined);
    if (permission === "allow" || permission === "deny" || permission === "ask") verdict.decision = permission;
    const reason = text(specific.permissionDecisionReason) ?? text(json.reason);
    if (reason) verdict.reason = reason;
    if (isObject(specific.updatedInput)) verdict.updatedInput = specific.updatedInput;
    return verdict;
  }
  if (json.decision === "block" && BLOCKS[event]) {
    verdict.decision = BLOCKS[event];
    verdict.reason = text(json.reason) ?? "a hook blocked it without a reason";
  }
  return verdict;
}
