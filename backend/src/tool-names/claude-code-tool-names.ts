/**
 * Claude Code's tool names for this workbench's tools, so hooks written for Claude Code match here
 * unchanged (a matcher `Bash` takes `terminal` calls). Claude Code's file-writing tools (`Write`,
 * `Edit`, `MultiEdit`, `NotebookEdit`) have no tool of their own here: files are written by `terminal`
 * and `python_repl`, so a `PostToolUse` matcher naming them takes a call of those that changed files.
 */
import type { BuiltinToolName } from "@mini-openclaw/protocol";

export const CLAUDE_CODE_NAMES: Readonly<Record<BuiltinToolName, readonly string[]>> = {
  terminal: ["Bash"],
  python_repl: [],
  fetch_url: ["WebFetch"],
  web_search: ["WebSearch"],
  read_file: ["Read"],
  search_knowledge_base: [],
  memory_search: [],
  delegate: ["Task", "Agent"],
  schedule: [],
  browser: [],
};

/** What a call that changed files also goes by, for `PostToolUse` matchers. */
export const CLAUDE_CODE_WRITE_NAMES = ["Write", "Edit", "MultiEdit", "NotebookEdit"] as const;

/** Every name a tool's call goes by for a hook matcher: its own, then Claude Code's. */
export function hookToolNames(tool: string, changedFiles: boolean): string[] {
  const aliases = Object.hasOwn(CLAUDE_CODE_NAMES, tool) ? CLAUDE_CODE_NAMES[tool as BuiltinToolName] : [];
  return [tool, ...aliases, ...(changedFiles ? CLAUDE_CODE_WRITE_NAMES : [])];
}
