import { HumanMessage } from "@langchain/core/messages";
import type { ChatEvent } from "@mini-openclaw/protocol";
import { runAgentTurn, type TurnOutcome } from "../agent/run-agent-turn.js";
import type { AgentIdentity, CoreTool, ToolCall, ToolResult, ToolRuntime } from "../tools/core-tool.js";
import type { DelegationRuntime } from "./delegation-runtime.js";
import type { Role } from "./parse-role.js";

const TIMEOUT_REASON = "delegate_timeout";

const formatDuration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);

function systemPromptFor(role: Role, depth: number, maxDepth: number): string {
  return (
    `You are the "${role.name}" sub-agent (depth ${depth} of at most ${maxDepth}). Another agent handed you a task; ` +
    "you do not see its conversation, only the task. Do it with your tools, then answer with the result alone: your " +
    "final answer is all the other agent receives.\n\n" +
    role.instructions
  );
}

/**
 * Runs one sub-agent to its final answer. Everything it does streams under the parent's call as
 * `delegate` events (the session stores them as they stream); the parent's model gets the final
 * answer only. The parent's cancel and the delegation timeout stop it. `toolsFor` makes the
 * sub-agent's tools for its identity (the delegate tool decides which).
 */
export async function runSubAgent(
  role: Role,
  task: string,
  {
    delegation,
    runtime,
    parent,
    toolsFor,
  }: { delegation: DelegationRuntime; runtime: ToolRuntime; parent: AgentIdentity; toolsFor: (agent: AgentIdentity) => CoreTool[] },
  call: ToolCall,
): Promise<ToolResult> {
  const depth = parent.depth + 1;
  const agent: AgentIdentity = { sessionId: parent.sessionId, depth, roles: [...parent.roles, role.name] };
  const started = Date.now();
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(call.signal.reason);
  if (call.signal.aborted) onParentAbort();
  call.signal.addEventListener("abort", onParentAbort, { once: true });
  const timer = setTimeout(() => controller.abort(TIMEOUT_REASON), delegation.timeoutMs);
  const finished = delegation.registry.start({
    call_id: call.id,
    session_id: parent.sessionId,
    agent: role.name,
    depth,
    task: task.slice(0, 500),
    started_at: new Date(started).toISOString(),
  });

  const forward = (event: ChatEvent) => call.write({ type: "delegate", call_id: call.id, agent: role.name, depth, event });
  let result: TurnOutcome;
  try {
    // The sub-agent's model calls take its own signal (streamEvents reads no inherited run context).
    result = await runAgentTurn({
      profiles: delegation.modelsFor(role.model ?? undefined),
      systemPrompt: systemPromptFor(role, depth, delegation.maxDepth),
      messages: [new HumanMessage(task)],
      tools: toolsFor(agent),
      locationPrefix: runtime.config.locationPrefix,
      maxSteps: delegation.maxSteps,
      signal: controller.signal,
      log: delegation.log,
      emit: forward,
      approve: delegation.approve,
      cleanOutput: (text) => runtime.secrets.scrub(text),
      ...(delegation.hooksFor ? { hooks: delegation.hooksFor({ role: role.name, depth }, forward) } : {}),
    });
    forward(result);
  } finally {
    clearTimeout(timer);
    call.signal.removeEventListener("abort", onParentAbort);
    finished();
  }

  const details = { agent: role.name, depth, task, duration_ms: Date.now() - started };
  if (result.type === "final") return { ok: true, output: result.content || "(the sub-agent gave no answer)", details };
  const reason =
    controller.signal.reason === TIMEOUT_REASON
      ? `it did not finish within ${formatDuration(delegation.timeoutMs)} and was stopped`
      : result.message;
  return { ok: false, output: `Error: the "${role.name}" sub-agent failed: ${reason}`, details };
}
