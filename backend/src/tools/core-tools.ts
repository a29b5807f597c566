import type { AgentIdentity, CoreTool, ToolRuntime } from "./core-tool.js";
import { fetchUrlTool } from "./fetch-url.js";
import { pythonReplTool } from "./python-repl.js";
import { readFileTool } from "./read-file.js";
import { searchKnowledgeBaseTool } from "./search-knowledge-base.js";
import { terminalTool } from "./terminal.js";
import { memorySearchTool } from "./memory-search.js";
import { webSearchTool } from "./web-search.js";
import { browserTool } from "./browser.js";

/**
 * The core tools (PRODUCT.md section 6, memory_search, web_search when a search provider is set up,
 * and browser when a Chromium is installed), made for one agent: each gets only what it needs.
 */
export function coreTools(runtime: ToolRuntime, agent: AgentIdentity): CoreTool[] {
  const { config, sandbox, python, fetchAgent, knowledge, memory, web, browsers } = runtime;
  return [
    readFileTool(config),
    terminalTool({ sandbox, limits: config.sandbox, agent }),
    pythonReplTool({ sandbox, python, limits: config.sandbox, agent }),
    fetchUrlTool({ fetchAgent }),
    searchKnowledgeBaseTool({ knowledge }),
    memorySearchTool({ memory, embedder: knowledge.searchEmbedder }),
    ...(web.available ? [webSearchTool({ web })] : []),
    ...(browsers.available ? [browserTool({ browsers, sessionId: agent.sessionId })] : []),
  ];
}
