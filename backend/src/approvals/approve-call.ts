/**
 * The approval step of a governed tool call, between the checks and the run: the policy decides, or
 * the turn pauses on an `approval_request` until the user, the clock or Stop does. Every decision is
 * an `approval` event, so the session records who decided what, when, and by which rule.
 */
import { randomUUID } from "node:crypto";
import type { ApprovalTool, ChatEvent } from "@mini-openclaw/protocol";
import { APPROVALS_FILE } from "../settings/settings-files.js";
import { addAllowRule, loadPolicy } from "./approval-file.js";
import type { ApprovalGate } from "./approval-gate.js";
import type { SessionHosts } from "./session-hosts.js";
import { decide, decideMcp, hostOf, isGatedTool, proposeRule, subjectOf } from "./approval-policy.js";

export interface ApprovalRequest {
  callId: string;
  tool: string;
  input: unknown;
  /** The skill active when the call was made. */
  skill: string | null;
  /** The stream the call's events go to (a sub-agent's is nested under its delegate call). */
  emit: (event: ChatEvent) => void;
  signal: AbortSignal;
  /** An MCP tool: its server, its own name there, and whether the server marked it read-only. */
  mcp?: { server: string; tool: string; readOnly: boolean };
  /**
   * What the user's PreToolUse hooks said: `ask` puts the call before the user whatever the rules (a
   * deny rule still refuses it); `allow` runs it without asking (a deny rule still refuses it).
   */
  hook?: { decision: "allow" | "ask"; reason?: string };
}

export type ApprovalResult = { run: true } | { run: false; output: string };

export type Approver = (request: ApprovalRequest) => Promise<ApprovalResult>;

export interface ApproverDeps {
  dataRoot: string;
  gate: ApprovalGate;
  /** `APPROVALS=off`: every call runs, as before approvals existed (unattended runs, most tests). */
  off: boolean;
  /** Where terminal and python_repl run, in words (the sandbox's status). */
  sandbox: string;
  log: { warn(obj: object, msg: string): void };
  /** Nobody watches the turn (a scheduled run): deny at once, or wait this long instead of the policy's timeout. */
  unattended?: Unattended;
  /** The hosts a person let the browser visit, per session: a second visit does not ask again. */
  browserHosts?: SessionHosts;
}

/** A run nobody watches (a scheduled task's): how it treats what needs a person. */
export interface Unattended {
  /** Deny at once what needs a person (nobody is there); otherwise wait `timeoutSeconds` for one. */
  deny: boolean;
  timeoutSeconds: number;
  /** The hosts a person let this task's fetch_url reach: a host it has not used before asks first. */
  hosts?: { known(host: string): boolean; remember(host: string): void };
}


function whereItRuns(tool: ApprovalTool, sandbox: string, mcp?: ApprovalRequest["mcp"]): string {
  if (mcp) return `the MCP server "${mcp.server}" (tool ${mcp.tool}), outside the sandbox, with the server's own access`;
  if (tool === "fetch_url") return "the workbench's guarded fetch (public addresses only)";
  if (tool === "browser") return "the session's headless Chromium, behind the workbench's guard (public addresses only, no local files)";
  if (tool === "delegate") return "a sub-agent, whose own commands ask again";
  if (tool === "schedule") return "the workbench's scheduler: each run is a turn with nobody watching (the Tasks view lists it)";
  if (!isGatedTool(tool)) return "the workbench itself (it reads and searches the data root, confined)";
  return sandbox;
}

/** What the model reads when a call did not run. */
function refusal(tool: ApprovalTool, why: string): string {
  return `Error: this ${tool} call did not run: ${why}. Do not retry it as it is; ask the user or take another way.`;
}

export function createApprover(deps: ApproverDeps, sessionId: string): Approver {
  return async ({ callId, tool: name, input, skill, emit, signal, mcp, hook }) => {
    // Core tools by name; MCP tools (`mcp_read_resource` only reads) under the `mcp` section.
    const gated = isGatedTool(name);
    // A run nobody watches never sets tasks by itself, whatever the rules: a task that schedules tasks
    // would multiply unasked. A person decides each one (or, set to deny, nobody does and it is refused).
    // Nor does it send data to a host its task has not used before (a planted checklist's way out).
    // The browser asks only where it goes somewhere (navigate, a new tab with a URL); clicks act on a page already let in.
    const action = (input as { action?: unknown; url?: unknown } | null) ?? {};
    const visits = name === "browser" && (action.action === "navigate" || (action.action === "tabs" && typeof action.url === "string"));
    const reaches = name === "fetch_url" || visits;
    const host = reaches ? (hostOf(String(action.url ?? "")) ?? "") : "";
    const newHost = reaches && deps.unattended !== undefined && !deps.unattended.hosts?.known(host);
    const personNeeded = (name === "schedule" || newHost) && deps.unattended !== undefined;
    const hookAsks = hook?.decision === "ask";
    const governed = (gated && (name !== "browser" || visits)) || (mcp !== undefined && name !== "mcp_read_resource");
    if (!hookAsks && ((deps.off && !personNeeded) || !governed)) return { run: true };
    const tool = name as ApprovalTool;
    const args = (input ?? {}) as Record<string, unknown>;
    const { policy, problem } = await loadPolicy(deps.dataRoot);
    if (problem) deps.log.warn({ problem }, "approval policy not used as written");
    const decided: ReturnType<typeof decide> = !governed || deps.off ? { action: "run" } : gated ? decide(policy, name, args) : decideMcp(policy, { name, server: mcp!.server, readOnly: mcp!.readOnly });
    // A host the user named in an allow rule is theirs; fetch_url's mode "off" is not a person's yes.
    const byUserRule = reaches && decided.action === "run" && decided.rule !== undefined;
    const asked: typeof decided = personNeeded && decided.action === "run" && !byUserRule ? { action: "ask" } : decided;
    // A host the user already let this session's browser visit is not asked about again.
    const visited = visits && asked.action === "ask" && !personNeeded && deps.browserHosts?.known(sessionId, host);
    const ruled: typeof decided = visited ? { action: "run", rule: `${host}: visited this session` } : asked;
    // The user's hooks come after the deny rules: a hook may ask about a call the rules let run, or let run one they would ask about.
    const hookRule = `PreToolUse hook${hook?.reason ? `: ${hook.reason}` : ""}`;
    const verdict: typeof decided =
      ruled.action === "deny" ? ruled : hookAsks ? { action: "ask" } : hook?.decision === "allow" && ruled.action === "ask" && !personNeeded ? { action: "run", rule: hookRule } : ruled;
    const record = (decision: "approved" | "denied", by: "user" | "rule" | "timeout" | "stop", id: string, extra: { rule?: string; reason?: string } = {}) =>
      emit({ type: "approval", id, call_id: callId, tool, decision, by, ...extra, at: Date.now() });

    if (verdict.action === "run") {
      if (verdict.rule !== undefined) record("approved", "rule", `rule:${callId}`, { rule: verdict.rule });
      return { run: true };
    }
    if (verdict.action === "deny") {
      record("denied", "rule", `rule:${callId}`, verdict.rule !== undefined ? { rule: verdict.rule } : {});
      return { run: false, output: refusal(tool, `${verdict.why} (${APPROVALS_FILE})`) };
    }

    if (deps.unattended?.deny) {
      record("denied", "rule", `rule:${callId}`, { rule: "unattended: deny" });
      return { run: false, output: refusal(tool, "it needs approval, and this scheduled run is set to deny what nobody is there to approve") };
    }
    const waitSeconds = deps.unattended?.timeoutSeconds ?? policy.timeout_seconds;
    const request = {
      type: "approval_request" as const,
      id: randomUUID(),
      call_id: callId,
      tool,
      subject: gated ? subjectOf(name, args) : mcp ? `${mcp.server} · ${mcp.tool} ${JSON.stringify(args, null, 2)}` : JSON.stringify(args, null, 2),
      ...(skill ? { skill } : {}),
      sandbox: whereItRuns(tool, deps.sandbox, mcp),
      // A hook asks every time: an allow rule would not answer it, so none is offered.
      proposal: hookAsks ? "" : gated ? proposeRule(name, args) : name,
      ...(hookAsks ? { hook_reason: hook?.reason ?? "a PreToolUse hook asks for your approval" } : {}),
      expires_at: Date.now() + waitSeconds * 1000,
    };
    emit(request);
    const outcome = await deps.gate.wait({ ...request, session_id: sessionId }, signal);
    if ((outcome.decision === "approve" || outcome.decision === "always") && newHost) deps.unattended?.hosts?.remember(host);
    if ((outcome.decision === "approve" || outcome.decision === "always") && visits) deps.browserHosts?.remember(sessionId, host);
    switch (outcome.decision) {
      case "approve":
        record("approved", "user", request.id);
        return { run: true };
      case "always": {
        // Nothing answers a hook's question for next time: once is all it can be.
        if (hookAsks) {
          record("approved", "user", request.id);
          return { run: true };
        }
        const saved = await addAllowRule(deps.dataRoot, tool, outcome.rule);
        if (!saved) deps.log.warn({ rule: outcome.rule }, `the allow rule was not saved: ${APPROVALS_FILE} is broken`);
        record("approved", "user", request.id, { rule: outcome.rule });
        return { run: true };
      }
      case "deny":
        record("denied", "user", request.id, outcome.reason ? { reason: outcome.reason } : {});
        return { run: false, output: refusal(tool, `the user denied it${outcome.reason ? `. Their reason: ${outcome.reason}` : ""}`) };
      case "timeout":
        record("denied", "timeout", request.id);
        return { run: false, output: refusal(tool, `nobody approved it within ${waitSeconds} s`) };
      case "stop":
        record("denied", "stop", request.id);
        return { run: false, output: refusal(tool, "the turn was stopped while it waited for approval") };
    }
  };
}
