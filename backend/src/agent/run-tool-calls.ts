import { ToolMessage } from "@langchain/core/messages";
import type { ToolCall as LangChainToolCall } from "@langchain/core/messages/tool";
import { randomUUID } from "node:crypto";
import { builtinTools, type ChangesEvent, type ChatEvent, isBuiltinTool } from "@mini-openclaw/protocol";
import type { Approver } from "../approvals/approve-call.js";
import { isUserError } from "../lib/user-error.js";
import type { ActiveSkill } from "../skills/active-skill.js";
import { type CoreTool, invalidArguments, type ToolResult } from "../tools/core-tool.js";
import { type ToolHooks, withHookNotes } from "./hook-ports.js";
import { refusedBySkill } from "./skill-tool-policy.js";

export interface ToolStep {
  tools: CoreTool[];
  /** The turn's: a call still running when it fires is stopped. */
  signal: AbortSignal;
  locationPrefix: string;
  /** The model step (1-based) that made these calls. */
  step: number;
  emit: (event: ChatEvent) => void;
  /** The skill active in this turn (the last SKILL.md read); a call that reads one changes it. */
  activeSkill: { current: ActiveSkill | null };
  /** Unexpected failures (not refusals) are reported here for the log. */
  onCrash(toolName: string, err: unknown): void;
  /** Calls answered without running, by id (arguments cut by the token limit or not JSON; overtaken by a steer). */
  refused?: Map<string, ToolResult>;
  /** The approval step (APPROVALS.json); absent: every call runs. */
  approve?: Approver;
  /** Records what a call changed on disk (the main agent's calls that can write); absent: nothing is recorded. */
  track?: (call: { id: string; tool: string }, run: () => Promise<ToolResult>) => Promise<{ result: ToolResult; changes: ChangesEvent | null }>;
  /** What a tool's output passes through before the model reads it (the secret scrubber); the events pass the turn's own. */
  cleanOutput?: (text: string) => string;
  /** The user's PreToolUse and PostToolUse hooks; absent: none. */
  hooks?: ToolHooks;
}

/** Whether a tool's calls can change the user's files (protocol's table; MCP tools' changes are the server's). */
const writes = (tool: CoreTool) => isBuiltinTool(tool.name) && builtinTools[tool.name].writes;

type Executed = {
  result: ToolResult;
  changes: ChangesEvent | null;
  /** The input it ran with (a hook may have rewritten the model's). */
  input?: unknown;
  /** What hooks added for the model, and the failure a PostToolUse hook marked. */
  context?: string[];
  failed?: string;
};

/** The checks every input passes before it may run, the model's or a hook's rewrite: its schema, the tool's own, the skill's. */
async function checked(tool: CoreTool, args: unknown, run: ToolStep): Promise<{ input: unknown } | { refused: ToolResult }> {
  const parsed = tool.schema.safeParse(args);
  if (!parsed.success) return { refused: { ok: false, output: invalidArguments(tool.name, parsed.error.issues) } };
  const problems = (await tool.checkArguments?.(parsed.data)) ?? null;
  if (problems) return { refused: { ok: false, output: invalidArguments(tool.name, problems) } };
  const refusal = refusedBySkill(tool, parsed.data, run.locationPrefix, run.activeSkill.current);
  if (refusal) return { refused: refusal };
  return { input: parsed.data };
}

async function execute(tool: CoreTool, args: unknown, call: { id: string }, run: ToolStep): Promise<Executed> {
  const first = await checked(tool, args, run);
  if ("refused" in first) return { result: first.refused, changes: null, input: args };
  let input = first.input;
  // The user's PreToolUse hooks, once the call is valid: they may refuse it, ask, let it run unasked, or rewrite it.
  const hooked = (await run.hooks?.before({ id: call.id, tool: tool.name, input })) ?? {};
  const context = hooked.context ? [hooked.context] : [];
  if (hooked.decision === "deny") {
    return { result: { ok: false, output: `Error: this ${tool.name} call did not run: a PreToolUse hook refused it: ${hooked.reason ?? "no reason given"}. Do not retry it as it is.` }, changes: null, input, context };
  }
  if (hooked.input) {
    const again = await checked(tool, hooked.input, run);
    if ("refused" in again) return { result: { ...again.refused, output: `A PreToolUse hook rewrote this call's input, and the rewrite was refused: ${again.refused.output}` }, changes: null, input: hooked.input, context };
    input = again.input;
  }
  // Last, once the call is known to be valid and permitted by the skill: nothing runs before this.
  const hook = hooked.decision === "allow" || hooked.decision === "ask" ? { hook: { decision: hooked.decision, ...(hooked.reason ? { reason: hooked.reason } : {}) } } : {};
  const approval = run.approve
    ? await run.approve({ callId: call.id, tool: tool.name, input, skill: run.activeSkill.current?.name ?? null, emit: run.emit, signal: run.signal, mcp: tool.mcp, ...hook })
    : { run: true as const };
  if (!approval.run) return { result: { ok: false, output: approval.output }, changes: null, input, context };
  const runIt = async (): Promise<ToolResult> => {
    try {
      return await tool.execute(input, { id: call.id, signal: run.signal, write: run.emit, activeSkill: run.activeSkill.current });
    } catch (err) {
      if (isUserError(err)) return { ok: false, output: `Error: ${err.message}` };
      run.onCrash(tool.name, err);
      return { ok: false, output: `Error: ${tool.name} failed: ${(err as Error)?.message ?? String(err)}` };
    }
  };
  const done = run.track && writes(tool) ? await run.track({ id: call.id, tool: tool.name }, runIt) : { result: await runIt(), changes: null };
  // The user's PostToolUse hooks, before the result goes out: they may add context or mark it failed.
  if (!run.hooks) return { ...done, input, context };
  const after = await run.hooks.after({ id: call.id, tool: tool.name, input, result: done.result, changedFiles: done.changes?.files.map((file) => file.path) ?? [] });
  if (after.context) context.push(after.context);
  return { result: after.failed ? { ...done.result, ok: false } : done.result, changes: done.changes, input, context, ...(after.failed ? { failed: after.failed } : {}) };
}

async function runOne(call: LangChainToolCall & { rawArgs?: string | null }, run: ToolStep): Promise<ToolMessage> {
  const id = call.id || `call_${randomUUID()}`;
  const startedAt = Date.now();
  const refused = run.refused?.get(id);
  // A call refused for its arguments shows what the model actually wrote.
  const showRaw = refused?.details?.raw_arguments !== undefined && call.rawArgs != null;
  const tool = run.tools.find((t) => t.name === call.name);
  const mcp = tool?.mcp && tool.name !== "mcp_read_resource" ? { mcp: { server: tool.mcp.server, tool: tool.mcp.tool } } : {};
  run.emit({ type: "tool_call", id, name: call.name, input: showRaw ? call.rawArgs : call.args, step: run.step, started_at: startedAt, ...mcp });
  const executed: Executed = refused
    ? { result: refused, changes: null }
    : tool
      ? await execute(tool, call.args, { id }, run)
      : { result: { ok: false, output: `Error: ${call.name} is not a valid tool, try one of [${run.tools.map((t) => t.name).join(", ")}].` }, changes: null };
  const { result, changes } = executed;
  if (result.activatedSkill) {
    const { name, location, allowedTools, allowedCommands } = result.activatedSkill;
    run.activeSkill.current = result.activatedSkill;
    run.emit({ type: "skill", name, location, ...(allowedTools ? { allowed_tools: allowedTools } : {}), ...(allowedCommands ? { allowed_commands: allowedCommands } : {}) });
  }
  // What hooks added is part of what the model is given, so the result says it too.
  const output = executed.context?.length || executed.failed ? withHookNotes(result.output, { failed: executed.failed, context: executed.context }) : result.output;
  run.emit({
    type: "tool_result",
    id,
    name: call.name,
    output,
    ok: result.ok,
    duration_ms: Date.now() - startedAt,
    ...(result.details ? { details: result.details } : {}),
  });
  if (changes) run.emit(changes);
  return new ToolMessage({ content: run.cleanOutput ? run.cleanOutput(output) : output, tool_call_id: id, name: call.name, status: result.ok ? "success" : "error" });
}

/**
 * Runs the tool calls of one model step, all at once, and returns what the model is sent back (one
 * message per call, in call order). Each call streams `tool_call`, then its own events (a
 * sub-agent's trace), a `skill` when it loaded one, and `tool_result`. Schema checks, the skill's
 * `allowed-tools` and unknown tools are answered here, so the model and the user see every refusal.
 */
export function runToolCalls(calls: Array<LangChainToolCall & { rawArgs?: string | null }>, run: ToolStep): Promise<ToolMessage[]> {
  return Promise.all(calls.map((call) => runOne(call, run)));
}
