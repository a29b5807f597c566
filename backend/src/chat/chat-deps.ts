import { profileKeySetting } from "@mini-openclaw/protocol";
import type { FastifyBaseLogger } from "fastify";
import type { ApprovalGate } from "../approvals/approval-gate.js";
import type { AttachmentStore } from "../attachments/attachment-store.js";
import type { ChangeTracker } from "../checkpoints/change-tracker.js";
import type { Config } from "../config/config.js";
import type { DelegationRegistry } from "../delegation/delegation-runtime.js";
import type { Hooks } from "../hooks/hooks.js";
import type { SessionHosts } from "../approvals/session-hosts.js";
import type { McpHub } from "../mcp/mcp-hub.js";
import type { ModelProfiles } from "../models/model-profiles.js";
import type { PromptLog } from "../prompt/prompt-log.js";
import type { PromptHistory } from "../prompt/prompt-history.js";
import type { Reviewer } from "../review/reviewer.js";
import type { SessionStore } from "../sessions/session-store.js";
import type { ToolRuntime } from "../tools/core-tool.js";
import type { TurnRegistry } from "../turns/turn-registry.js";
import type { Tracing } from "../telemetry/tracing.js";
import type { UiEventBus } from "../ui-events/ui-event-bus.js";
import type { TaskCreator } from "../tools/schedule.js";

/** What running a turn takes: built once at start-up (app.ts), shared by every turn. */
export interface ChatDeps {
  config: Config;
  sessions: SessionStore;
  prompts: PromptLog;
  /** The prompt each turn was sent, kept with its session (replays, prompt diffs). */
  promptHistory: PromptHistory;
  /** The running turns, their readers and queues: one turn per session at a time. */
  turns: TurnRegistry;
  /** What the tools run with: the sandbox, the Python sessions, the guarded fetch agent, the knowledge base. */
  runtime: ToolRuntime;
  log: FastifyBaseLogger;
  ui: UiEventBus;
  delegations: DelegationRegistry;
  reviewer: Reviewer;
  /** Calls waiting for the user's approval, across sessions. */
  approvals: ApprovalGate;
  /** The MCP servers of MCP.json: a new session takes its MCP tools from here. */
  mcp: McpHub;
  /** Records what tool calls change on disk, for the changes view, revert and rewind. */
  changes: ChangeTracker;
  /** Exports each turn as a trace, when a collector is configured. */
  tracing: Tracing | null;
  /** The model profiles (MODELS.json, keys in KEY.md): which endpoint each turn and helper calls. */
  models: ModelProfiles;
  /** Files and images sent with messages. */
  attachments: AttachmentStore;
  /** The scheduler, for the agent's `schedule` tool. */
  tasks: TaskCreator;
  /** The user's hooks (HOOKS.json, trusted skills' hooks), run at each point of a turn. */
  hooks: Hooks;
  /** The hosts a person let each session's browser visit (asked once per host and session). */
  browserHosts: SessionHosts;
}

export function modelNotConfiguredMessage(config: Config, profile = "default"): string {
  if (profile !== "default") {
    return `The model profile "${profile}" has no key and no base URL: set ${profileKeySetting(profile)} in ${config.keyFilePath} (or the environment), or give the profile a base URL in MODELS.json.`;
  }
  return (
    `No model is configured. Set one up with the Model button at the top of the workbench, or put OPENAI_API_KEY=... ` +
    `(and for other providers OPENAI_BASE_URL=... and OPENAI_MODEL=...) in ${config.keyFilePath} and restart.`
  );
}
