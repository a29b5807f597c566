/**
 * The built-in tools' names, from protocol's table (builtin-tools.ts): the core tools of PRODUCT.md
 * section 6 and `memory_search` (the agent's own memory, issue 30), and `delegate`.
 */
import { type BuiltinToolName, builtinToolNames, isBuiltinTool } from "@mini-openclaw/protocol";

export const DELEGATE_TOOL = "delegate";

/** Tools an agent can be given: the core tools, and `delegate` (hand a task to a sub-agent role). */
export type ToolName = BuiltinToolName;
export type CoreToolName = Exclude<ToolName, typeof DELEGATE_TOOL>;

export const CORE_TOOL_NAMES: readonly CoreToolName[] = builtinToolNames.filter((name): name is CoreToolName => name !== DELEGATE_TOOL);


/** Names a skill's `allowed-tools` or a role's `tools` may list. */
export const isToolName = (name: string): name is ToolName => isBuiltinTool(name);
