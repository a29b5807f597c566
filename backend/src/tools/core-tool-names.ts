/** The five core tools of PRODUCT.md section 6, whether or not each is enabled yet. */
export const CORE_TOOL_NAMES = ["terminal", "python_repl", "fetch_url", "read_file", "search_knowledge_base"] as const;
export type CoreToolName = (typeof CORE_TOOL_NAMES)[number];

export const isCoreToolName = (name: string): name is CoreToolName =>
  (CORE_TOOL_NAMES as readonly string[]).includes(name);

/** Tools an agent can be given: the core tools, and `delegate` (hand a task to a sub-agent role). */
export type ToolName = CoreToolName | "delegate";
