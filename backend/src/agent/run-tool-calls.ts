import { ToolMessage } from "@langchain/core/messages";
import type { ToolCall as LangChainToolCall } from "@langchain/core/messages/tool";
import { randomUUID } from "node:crypto";
import { builtinTools, type ChangesEvent, type ChatEvent, isBuiltinTool } from "@mini-openclaw/protocol";
import type { Approver } from "../approvals/approve-call.js";
import { isUserError } from "../lib/user-error.js";
import type { ActiveSkill } from "../skills/active-skill.js";
import { type CoreTool, invalidArguments, type ToolResult } from "../tools/core-tool.js";
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
}

/** Whether a tool's calls can change the user's files (protocol's table; MCP tools' changes are the server's). */
const writes = (tool: CoreTool) => isBuiltinTool(tool.name) && builtinTools[tool.name].writes;

type Executed = { result: ToolResult; changes: ChangesEvent | null };

async function execute(tool: CoreTool, args: unknown, call: { id: string }, run: ToolStep): Promise<Executed> {
  const parsed = tool.schema.safeParse(args);
  if (!parsed.success) return { result: { ok: false, output: invalidArguments(tool.name, parsed.error.issues) }, changes: null };
  const problems = (await tool.checkArguments?.(parsed.data)) ?? null;
  if (problems) return { result: { ok: false, output: invalidArguments(tool.name, problems) }, changes: null };
  const refusal = refusedBySkill(tool, parsed.data, run.locationPrefix, run.activeSkill.current);
  if (refusal) return { result: refusal, changes: null };
  // Last, once the call is known to be valid and permitted by the skill: nothing runs before this.
  const approval = run.approve
    ? await run.approve({ callId: call.id, tool: tool.name, input: parsed.data, skill: run.activeSkill.current?.name ?? null, emit: run.emit, signal: run.signal, mcp: tool.mcp })
    : { run: true as const };
  if (!approval.run) return { result: { ok: false, output: approval.output }, changes: null };
  const runIt = async (): Promise<ToolResult> => {
    try {
      return await tool.execute(parsed.data, { id: call.id, signal: run.signal, write: run.emit, activeSkill: run.activeSkill.current });
    } catch (err) {
      if (isUserError(err)) return { ok: false, output: `Error: ${err.message}` };
      run.onCrash(tool.name, err);
      return { ok: false, output: `Error: ${tool.name} failed: ${(err as Error)?.message ?? String(err)}` };
    }
  };
  if (run.track && writes(tool)) return run.track({ id: call.id, tool: tool.name }, runIt);
  return { result: await runIt(), changes: null };
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
  const { result, changes }: Executed = refused
    ? { result: refused, changes: null }
    : tool
      ? await execute(tool, call.args, { id }, run)
      : { result: { ok: false, output: `Error: ${call.name} is not a valid tool, try one of [${run.tools.map((t) => t.name).join(", ")}].` }, changes: null };
  if (result.activatedSkill) {
    const { name, location, allowedTools, allowedCommands } = result.activatedSkill;
    run.activeSkill.current = result.activatedSkill;
    run.emit({ type: "skill", name, location, ...(allowedTools ? { allowed_tools: allowedTools } : {}), ...(allowedCommands ? { allowed_commands: allowedCommands } : {}) });
  }
  run.emit({
    type: "tool_result",
    id,
    name: call.name,
    output: result.output,
    ok: result.ok,
    duration_ms: Date.now() - startedAt,
    ...(result.details ? { details: result.details } : {}),
  });
  if (changes) run.emit(changes);
  return new ToolMessage({ content: run.cleanOutput ? run.cleanOutput(result.output) : result.output, tool_call_id: id, name: call.name, status: result.ok ? "success" : "error" });
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
