import type { Agent } from "undici";
import type { z } from "zod";
import type { Config } from "../config/config.js";
import type { ChatEvent } from "@mini-openclaw/protocol";
import type { DelegationRuntime } from "../delegation/delegation-runtime.js";
import type { KnowledgeBase } from "../knowledge/knowledge-base.js";
import type { PythonSessions } from "../sandbox/python-session.js";
import type { Sandbox } from "../sandbox/sandbox.js";
import type { ToolName } from "./core-tool-names.js";

export interface ToolContext {
  config: Config;
  sessionId: string;
  sandbox: Sandbox;
  python: PythonSessions;
  /** The dispatcher fetch_url uses: it refuses non-public addresses at connect time. */
  fetchAgent: Agent;
  knowledge: KnowledgeBase;
  signal: AbortSignal;
  /** Who calls: the main agent (depth 0, no roles) or a sub-agent, by the roles that led to it. */
  agent: { depth: number; roles: string[] };
  /** What `delegate` needs: roles, the model, limits, the registry of running delegations. */
  delegation: DelegationRuntime;
}

/** The call being run: its id, and a writer for events that belong under it in the stream (a sub-agent's trace). */
export interface ToolCall {
  id: string;
  write(event: ChatEvent): void;
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

export interface ActiveSkill {
  name: string;
  location: string;
  /** Frontmatter `allowed-tools`: while the skill is active, other core tools are refused. */
  allowedTools: string[] | null;
}

export interface CoreTool<Schema extends z.ZodType = z.ZodType> {
  name: ToolName;
  description: string;
  schema: Schema;
  execute(input: z.infer<Schema>, context: ToolContext, call: ToolCall): Promise<ToolResult>;
}

/** Helper that keeps each tool's input type while collecting tools of different schemas. */
export function defineTool<Schema extends z.ZodType>(tool: CoreTool<Schema>): CoreTool<Schema> {
  return tool;
}
