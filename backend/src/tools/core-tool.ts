import type { Agent } from "undici";
import type { z } from "zod";
import type { Config } from "../config/config.js";
import type { ChatEvent } from "@mini-openclaw/protocol";
import type { KnowledgeBase } from "../knowledge/knowledge-base.js";
import type { MemoryIndex } from "../memory/memory-index.js";
import type { PythonSessions } from "../sandbox/python-session.js";
import type { Sandbox } from "../sandbox/sandbox.js";
import type { ToolName } from "../tool-names/core-tool-names.js";
import type { ActiveSkill } from "../skills/active-skill.js";
import type { WebSearch } from "../web/web-search.js";
import type { Browsers } from "../browser/browsers.js";

/** What the server runs tools with: built once at start-up, shared by every turn. */
import type { SecretScrubber } from "../secrets/secret-scrubber.js";

export interface ToolRuntime {
  config: Config;
  sandbox: Sandbox;
  python: PythonSessions;
  /** The dispatcher fetch_url uses: it refuses non-public addresses at connect time. */
  fetchAgent: Agent;
  knowledge: KnowledgeBase;
  /** memory_search's index (MEMORY.md and the daily logs), kept off the server's thread. */
  memory: MemoryIndex;
  /** Removes the workbench's secrets from what tools bring back, before any model reads it. */
  secrets: SecretScrubber;
  /** The web search provider (WEB.json): `web_search` is offered while one can run. */
  web: WebSearch;
  /** The sessions' browsers: `browser` is offered while a Chromium is installed. */
  browsers: Browsers;
}

/** Who calls: the main agent of a session (depth 0, no roles) or a sub-agent, by the roles that led to it. */
export interface AgentIdentity {
  sessionId: string;
  depth: number;
  roles: string[];
}

/** The call being run: its id, the turn's abort signal, and a writer for events that belong under it (a sub-agent's trace). */
export interface ToolCall {
  id: string;
  signal: AbortSignal;
  write(event: ChatEvent): void;
  /** The skill active in the turn when the call was made: paths its SKILL.md names resolve in its folder. */
  activeSkill?: ActiveSkill | null;
}

/** What a tool returns: `output` is what the model sees; `details` is for the UI only. */
export interface ToolResult {
  output: string;
  /** False when the tool refused or failed; the model is told why in `output`. */
  ok: boolean;
  details?: Record<string, unknown>;
  /** Set when the call read a skill's SKILL.md: that skill becomes active for the rest of the turn. */
  activatedSkill?: ActiveSkill;
}


/**
 * A tool as the agent loop runs it. Tools are made by factories that take only what they need (a
 * sandbox, the knowledge base, the caller's identity...); a call brings its id, signal and writer.
 */
export interface CoreTool<Schema extends z.ZodType = z.ZodType> {
  /** A core tool's name, or an MCP tool's (`mcp__<server>__<tool>`, `mcp_read_resource`). */
  name: ToolName | McpToolName;
  description: string;
  schema: Schema;
  /** The JSON Schema the model is sent, when the tool came with one (MCP); otherwise made from `schema`. */
  parameters?: Record<string, unknown>;
  /** An MCP tool: its server and own name (shown on its cards), and whether the server marked it read-only (approvals). */
  mcp?: { server: string; tool: string; readOnly: boolean };
  /** A check beyond `schema` that cannot run on the server's thread (an MCP tool's JSON Schema): its problems, or null. */
  checkArguments?(input: z.infer<Schema>): Promise<ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> | null>;
  execute(input: z.infer<Schema>, call: ToolCall): Promise<ToolResult>;
}

export type McpToolName = `mcp__${string}` | "mcp_read_resource";

/** Why arguments failed a tool's schema, in words the model can fix them from. */
export function invalidArguments(toolName: string, issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>): string {
  const parts = issues.map((i) => (i.path.length ? `${i.path.map(String).join(".")}: ${i.message}` : i.message));
  return `Error: invalid arguments for ${toolName}: ${parts.join("; ")}. Call it again with arguments that match its schema.`;
}

/** Helper that keeps each tool's input type while collecting tools of different schemas. */
export function defineTool<Schema extends z.ZodType>(tool: CoreTool<Schema>): CoreTool<Schema> {
  return tool;
}
