import { HumanMessage } from "@langchain/core/messages";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import type { ChatEvent } from "@mini-openclaw/protocol";
import { runAgentTurn, type TurnOutcome } from "../agent/run-agent-turn.js";
import type { CoreTool, ToolCall, ToolContext, ToolResult } from "../tools/core-tool.js";
import { coreTools } from "../tools/core-tools.js";
import { createDelegateTool } from "./delegate-tool.js";
import { DELEGATE_TOOL } from "../tools/core-tool-names.js";
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

/** Only the role's tools: the core tools it lists, and `delegate` if it may delegate further. */
function toolsFor(role: Role, roles: Role[]): CoreTool[] {
  const tools = coreTools().filter((tool) => role.tools.includes(tool.name));
  if (role.tools.includes(DELEGATE_TOOL)) tools.push(createDelegateTool(roles));
  return tools;
}

/**
 * Runs one sub-agent to its final answer. Everything it does streams under the parent's call as
 * `delegate` events (the session stores them as they stream); the parent's model gets the final
 * answer only. The parent's cancel and the delegation timeout stop it.
 */
export async function runSubAgent(role: Role, task: string, context: ToolContext, call: ToolCall): Promise<ToolResult> {
  const { delegation } = context;
  const depth = context.agent.depth + 1;
  const started = Date.now();
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(context.signal.reason);
  if (context.signal.aborted) onParentAbort();
  context.signal.addEventListener("abort", onParentAbort, { once: true });
  const timer = setTimeout(() => controller.abort(TIMEOUT_REASON), delegation.timeoutMs);
  const finished = delegation.registry.start({
    call_id: call.id,
    session_id: context.sessionId,
    agent: role.name,
    depth,
    task: task.slice(0, 500),
    started_at: new Date(started).toISOString(),
  });

  const forward = (event: ChatEvent) => call.write({ type: "delegate", call_id: call.id, agent: role.name, depth, event });
  let result: TurnOutcome;
  try {
    // A fresh LangChain context: inside the parent's, the sub-agent's model calls would inherit the
    // parent's run config and abort signal, and its own timeout would not reach its HTTP requests.
    result = await AsyncLocalStorageProviderSingleton.getInstance().run(undefined, () => runAgentTurn({
      model: role.model ? { ...delegation.model, model: role.model } : delegation.model,
      systemPrompt: systemPromptFor(role, depth, delegation.maxDepth),
      messages: [new HumanMessage(task)],
      tools: toolsFor(role, delegation.roles),
      toolContext: { ...context, agent: { depth, roles: [...context.agent.roles, role.name] } },
      maxSteps: delegation.maxSteps,
      signal: controller.signal,
      log: delegation.log,
      emit: forward,
    }));
    forward(result);
  } finally {
    clearTimeout(timer);
    context.signal.removeEventListener("abort", onParentAbort);
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
