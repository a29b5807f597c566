import { normalizeUserPath } from "../paths/confined-path.js";
import { commandAllowed } from "../skills/allowed-tools.js";
import type { ActiveSkill } from "../skills/active-skill.js";
import type { CoreTool, ToolResult } from "../tools/core-tool.js";
import { skillFolderOf } from "../tools/read-file.js";
import { mcpRuleMatches } from "../tool-names/mcp-tool-names.js";

/** Reading another skill's SKILL.md is always allowed: that is how the agent switches skills. */
function readsASkill(tool: CoreTool, input: unknown, locationPrefix: string): boolean {
  if (tool.name !== "read_file") return false;
  try {
    return skillFolderOf(normalizeUserPath((input as { path?: unknown })?.path, locationPrefix)) !== null;
  } catch {
    return false;
  }
}

/**
 * The active skill's `allowed-tools` policy: a refusal the model can act on when the skill does not
 * list this tool, or null when the call may run.
 */
export function refusedBySkill(tool: CoreTool, input: unknown, locationPrefix: string, skill: ActiveSkill | null): ToolResult | null {
  if (!skill?.allowedTools || readsASkill(tool, input, locationPrefix)) return null;
  const mcp = tool.mcp;
  if (mcp ? skill.allowedTools.some((rule) => mcpRuleMatches(rule, tool.name, mcp.server)) : skill.allowedTools.includes(tool.name)) {
    const command = (input as { command?: unknown })?.command;
    if (tool.name !== "terminal" || typeof command !== "string" || commandAllowed(command, skill.allowedCommands ?? null)) return null;
    return {
      ok: false,
      output:
        `Error: this command is not allowed while the skill "${skill.name}" is active: terminal may only run commands starting with ` +
        `${(skill.allowedCommands ?? []).map((c) => `"${c}"`).join(", ")}, in their plain forms (no substitutions, no options that ` +
        `write or run something, such as find -delete or -exec, sed -i).`,
      details: { refused_by_skill: skill.name, allowed_commands: skill.allowedCommands },
    };
  }
  return {
    ok: false,
    output:
      `Error: ${tool.name} is not allowed while the skill "${skill.name}" is active: its allowed-tools are ` +
      `${skill.allowedTools.join(", ") || "(none)"}. Use one of those, or finish the skill's steps first.`,
    details: { refused_by_skill: skill.name, allowed_tools: skill.allowedTools },
  };
}
