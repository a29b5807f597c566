import type { CoreTool } from "./core-tool.js";
import { readFileTool } from "./read-file.js";

/** The tools the agent gets. Terminal, Python, fetch and knowledge search join here as they land. */
export function coreTools(): CoreTool[] {
  return [readFileTool as unknown as CoreTool];
}
