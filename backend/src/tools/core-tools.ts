import type { CoreTool } from "./core-tool.js";
import { fetchUrlTool } from "./fetch-url.js";
import { pythonReplTool } from "./python-repl.js";
import { readFileTool } from "./read-file.js";
import { terminalTool } from "./terminal.js";

/** The tools the agent gets. Knowledge search joins here when it lands. */
export function coreTools(): CoreTool[] {
  return [readFileTool, terminalTool, pythonReplTool, fetchUrlTool] as unknown as CoreTool[];
}
