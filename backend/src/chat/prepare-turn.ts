import type { Unattended } from "../approvals/approve-call.js";
import type { Attachment } from "@mini-openclaw/protocol";
import type { Config } from "../config/config.js";
import { UserError } from "../lib/user-error.js";
import type { ModelProfiles } from "../models/model-profiles.js";
import { loadMcpPromptCommand } from "../mcp/mcp-prompt-command.js";
import { assertSessionId, newSessionId } from "../sessions/session-id.js";
import { type LoadedSkill, loadSlashCommand, parseSlashCommand } from "../skills/slash-command.js";
import { busyConflict } from "../turns/turn-registry.js";
import type { ChatDeps } from "./chat-deps.js";
import type { TurnReplay } from "./replayed-tools.js";

export interface TurnRequest {
  message: string;
  session_id?: string | null;
  /** false: no tools this turn (a model that takes none). */
  tools?: boolean;
  /** A branch: the turn this one follows (0: the start) instead of the current branch's last. */
  parent_turn?: number;
  /** This message only goes to this model profile. */
  model?: string;
  /** The session's profile from this message on. */
  session_model?: string;
  /** Attachment ids (POST /api/attachments). */
  attachments?: string[];
  /** The only tools the turn offers (a scheduled task's `tools`); absent: all. Not taken from HTTP. */
  allowed_tools?: string[];
  /** Nobody watches the turn (a scheduled run): approvals are denied at once, or after this wait. Not taken from HTTP. */
  unattended?: Unattended;
  /** A helper's turn: what the model is sent in place of `message` (which the session shows), and who sent it. Not taken from HTTP. */
  helper?: { modelMessage: string; by: "consolidation" };
  /** A replay of a recorded turn: its tools answered from the record, its prompt sent again. Not taken from HTTP. */
  replay?: TurnReplay;
}

/** A turn that passed its checks and holds its session, ready to run. */
export interface PreparedTurn {
  sessionId: string;
  created: boolean;
  message: string;
  /** A slash command's skill or MCP prompt, loaded for this turn. */
  loaded: LoadedSkill | null;
  tools: boolean;
  parentTurn: number | undefined;
  /** This message's profile, when it is not the session's. */
  model: string | undefined;
  /** The session switches to this profile with this message (recorded before the turn). */
  sessionModel: string | undefined;
  /** The files and images sent with the message, made the session's. */
  attachments: Attachment[];
  allowedTools: string[] | undefined;
  unattended: Unattended | undefined;
  by: "consolidation" | undefined;
  replay: TurnReplay | undefined;
}

/** The model profiles a request names must exist: a 400 naming the one that does not (nothing is stored). */
export function checkProfiles(models: Pick<ModelProfiles, "has" | "names">, request: { model?: string; session_model?: string }): void {
  for (const [field, name] of [["model", request.model], ["session_model", request.session_model]] as const) {
    if (name !== undefined && !models.has(name)) throw new UserError("invalid_request", `Unknown model profile in '${field}': "${name.slice(0, 100)}". The profiles are: ${models.names().join(", ")}.`);
  }
}

/** The message's own checks (also for a queued one): present, and within the chat size limit. */
export function checkMessage(config: Config, message: unknown): asserts message is string {
  if (typeof message !== "string" || message.trim() === "") {
    throw new UserError("invalid_request", "'message' must be a non-empty string.");
  }
  if (message.length > config.limits.messageChars) {
    throw new UserError("too_large", `'message' is ${message.length} characters, over the ${config.limits.messageChars} limit.`);
  }
}

/**
 * Checks everything that can be refused with a plain HTTP error before a turn starts: the message,
 * the session id, an unknown session, a turn it cannot follow, a slash command that names nothing,
 * a turn already running there. Then holds the session for the turn.
 */
export async function prepareTurn(deps: Pick<ChatDeps, "config" | "sessions" | "turns" | "mcp" | "models" | "attachments">, request: TurnRequest): Promise<PreparedTurn> {
  const { config, sessions, turns } = deps;
  checkMessage(config, request.message);
  checkProfiles(deps.models, request);
  const requested = request.session_id ?? null;
  let sessionId: string;
  let created = false;
  if (requested === null || requested === "") {
    sessionId = newSessionId();
    created = true;
  } else {
    sessionId = assertSessionId(requested);
    await sessions.require(sessionId, "Omit session_id to start a new session.");
  }
  const parentTurn = request.parent_turn;
  if (parentTurn !== undefined && parentTurn !== 0) {
    if (created) throw new UserError("invalid_request", `A new session has no turn ${parentTurn} to follow.`);
    await sessions.read(sessionId, { leaf: parentTurn }); // a 400 for a turn it does not have
  }
  const command = parseSlashCommand(request.message);
  const mcpPrompt = command ? await loadMcpPromptCommand(deps.mcp, command.name, command.args) : null;
  const loaded: LoadedSkill | null = request.helper
    ? { skill: null, modelMessage: request.helper.modelMessage }
    : mcpPrompt !== null ? { skill: null, modelMessage: mcpPrompt } : command ? await loadSlashCommand(config.dataRoot, config.locationPrefix, command.name, command.args) : null;
  const attachments = request.attachments?.length ? await deps.attachments.claim(request.attachments, sessionId) : [];
  turns.claim(sessionId, busyConflict(sessionId));
  return {
    attachments, sessionId, created, message: request.message, loaded, tools: request.tools !== false, parentTurn, model: request.model, sessionModel: request.session_model,
    allowedTools: request.allowed_tools, unattended: request.unattended, by: request.helper?.by, replay: request.replay };
}
