import type { CoreTool } from "./core-tool.js";
import { fetchUrlTool } from "./fetch-url.js";
import { pythonReplTool } from "./python-repl.js";
import { readFileTool } from "./read-file.js";
import { searchKnowledgeBaseTool } from "./search-knowledge-base.js";
import { terminalTool } from "./terminal.js";

/** The five core tools the agent gets (PRODUCT.md section 6). */
export function coreTools(): CoreTool[] {
  return [readFileTool, terminalTool, pythonReplTool, fetchUrlTool, searchKnowledgeBaseTool] as unknown as CoreTool[];
}
