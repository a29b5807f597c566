import { z } from "zod";
import { type AgentIdentity, type CoreTool, defineTool, type ToolRuntime } from "../tools/core-tool.js";
import type { DelegationRuntime } from "./delegation-runtime.js";
import { DELEGATE_TOOL } from "../tool-names/core-tool-names.js";
import type { Role } from "./parse-role.js";
import { runSubAgent } from "./run-sub-agent.js";
import { coreTools } from "../tools/core-tools.js";

const schema = z.object({
  agent: z.string().describe("The role to hand the task to: one of the names listed in this tool's description."),
  task: z
    .string()
    .min(1)
    .describe("The whole task, self-contained: the sub-agent does not see this conversation, only what you write here."),
});

/** The roles as the delegate tool lists them; a session keeps the list it started with (its tool set stays the same). */
export function describeRoles(roles: Role[]): string {
  if (roles.length === 0) return "No roles exist yet (a role is a Markdown file agents/<name>.md).";
  return `Roles:\n${roles.map((r) => `- ${r.name}: ${r.description} (tools: ${r.tools.join(", ") || "none"})`).join("\n")}`;
}

/** Only the role's tools, made for the sub-agent: the core tools it lists, and `delegate` if it may delegate further. */
function toolsFor(role: Role, delegation: DelegationRuntime, runtime: ToolRuntime, agent: AgentIdentity): CoreTool[] {
  const tools = coreTools(runtime, agent).filter((tool) => role.tools.includes(tool.name));
  if (role.tools.includes(DELEGATE_TOOL)) tools.push(createDelegateTool({ delegation, runtime, agent }));
  return tools;
}

/**
 * `delegate`: runs a sub-agent in a fresh context with its role's instructions and tools, and returns
 * its final answer. Several calls in one step run at once. It runs the roles as they are on disk at
 * the turn's start (`delegation.roles`); `catalog` is the list its description shows. `agent` is the
 * caller; the sub-agent's own tools are made from `runtime`.
 */
export function createDelegateTool({
  delegation,
  runtime,
  agent,
  catalog = describeRoles(delegation.roles),
}: {
  delegation: DelegationRuntime;
  runtime: ToolRuntime;
  agent: AgentIdentity;
  catalog?: string;
}): CoreTool {
  return defineTool({
    name: DELEGATE_TOOL,
    description:
      "Hand a self-contained task to a sub-agent with its own role, tools and a fresh context; you get back its final " +
      "answer only. Call it several times in one step to run sub-agents in parallel. " +
      catalog,
    schema,
    async execute(input, call) {
      const role = delegation.roles.find((r) => r.name === input.agent);
      if (!role) {
        return {
          ok: false,
          output: `Error: there is no role "${input.agent}". ${delegation.roles.length ? `Roles: ${delegation.roles.map((r) => r.name).join(", ")}.` : "No roles exist."}`,
        };
      }
      if (agent.depth + 1 > delegation.maxDepth) {
        return {
          ok: false,
          output:
            `Error: delegation refused: the depth limit is ${delegation.maxDepth} and this agent is already at depth ${agent.depth} ` +
            `(${["main", ...agent.roles].join(" → ")}). Do the task yourself with your own tools.`,
          details: { refused: "depth_limit", max_depth: delegation.maxDepth },
        };
      }
      const toolsOf = (sub: AgentIdentity) => toolsFor(role, delegation, runtime, sub);
      return runSubAgent(role, input.task, { delegation, runtime, parent: agent, toolsFor: toolsOf }, call);
    },
  });
}
