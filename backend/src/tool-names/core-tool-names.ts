/** The five core tools of PRODUCT.md section 6, and `memory_search` (the agent's own memory, issue 30). */
export const CORE_TOOL_NAMES = ["terminal", "python_repl", "fetch_url", "read_file", "search_knowledge_base", "memory_search"] as const;
export type CoreToolName = (typeof CORE_TOOL_NAMES)[number];

export const isCoreToolName = (name: string): name is CoreToolName =>
  (CORE_TOOL_NAMES as readonly string[]).includes(name);

export const DELEGATE_TOOL = "delegate";

/** Tools an agent can be given: the core tools, and `delegate` (hand a task to a sub-agent role). */
export type ToolName = CoreToolName | typeof DELEGATE_TOOL;

/** Names a skill's `allowed-tools` or a role's `tools` may list. */
export const isToolName = (name: string): name is ToolName => isCoreToolName(name) || name === DELEGATE_TOOL;
