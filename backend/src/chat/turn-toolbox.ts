/**
 * What a turn's agent may call, and who says yes: the core tools, delegation, scheduling and the
 * session's MCP tools (none when the turn runs without tools; a scheduled task's own list when it has
 * one), with the approver every governed call goes through and the user's hooks around every call.
 */
import type { ChatEvent } from "@mini-openclaw/protocol";
import { createApprover } from "../approvals/approve-call.js";
import type { ResolvedProfile } from "../config/resolved-profile.js";
import { createDelegateTool } from "../delegation/delegate-tool.js";
import { delegationRuntime } from "../delegation/delegation-runtime.js";
import { mcpTools } from "../mcp/mcp-tools.js";
import type { CoreTool } from "../tools/core-tool.js";
import { coreTools } from "../tools/core-tools.js";
import { scheduleTool } from "../tools/schedule.js";
import type { ChatDeps } from "./chat-deps.js";
import type { PreparedTurn } from "./prepare-turn.js";
import { replayedToolbox } from "./replayed-tools.js";
import type { TurnContext } from "./turn-context.js";
import { type TurnHookRunner, turnHooks } from "./turn-hooks.js";

export function turnToolbox(deps: ChatDeps, turn: PreparedTurn, context: TurnContext, chain: ResolvedProfile[], hooks: TurnHookRunner) {
  const { config, log } = deps;
  const mcp = turn.tools ? mcpTools(deps.mcp, context.mcp) : [];
  const agent = { sessionId: turn.sessionId, depth: 0, roles: [] };
  const approve = createApprover(
    { dataRoot: config.dataRoot, gate: deps.approvals, off: config.approvalsOff, sandbox: deps.runtime.sandbox.status.detail, log, browserHosts: deps.browserHosts, ...(turn.unattended ? { unattended: turn.unattended } : {}) },
    turn.sessionId,
  );
  // A sub-agent's hooks run like the main agent's, their runs shown in its trace.
  const hooksFor = (subagent: { role: string; depth: number }, emit: (event: ChatEvent) => void) => turnHooks(deps.hooks, { sessionId: turn.sessionId, turnId: context.turnId, emit, subagent });
  const delegation = { ...delegationRuntime(config, context.roles, deps.delegations, log, { turn: chain, profiles: (name) => deps.models.chain(name) }), approve, hooksFor };
  const all: CoreTool[] = turn.tools
    ? [...coreTools(deps.runtime, agent), createDelegateTool({ delegation, runtime: deps.runtime, agent, catalog: context.rolesCatalog }), scheduleTool({ tasks: deps.tasks, sessionId: turn.sessionId }), ...mcp]
    : [];
  // A scheduled task may offer only some tools.
  const tools = turn.allowedTools ? all.filter((tool) => turn.allowedTools!.includes(tool.name)) : all;
  // A replay with recorded results: its calls answered from the original turn's.
  if (turn.replay?.tools === "recorded") return { ...replayedToolbox(tools, approve, turn.replay), mcp, hooks };
  return { tools, mcp, approve, hooks };
}
