/**
 * The chat stream: every event `POST /api/chat` sends, as one discriminated union.
 * Backend and frontend both switch over `type` exhaustively. This package is types only: nothing
 * here exists at run time, so neither side needs it built.
 * On the wire each event is one SSE frame: `data: {json}\n\n`.
 */

/** First event of every turn: which session it belongs to. */
export interface SessionEvent {
  type: "session";
  session_id: string;
  /** True when this turn started the session (the skills snapshot was refreshed). */
  created: boolean;
}

/** A piece of the model's reasoning (from servers that stream `reasoning_content`). */
export interface ThoughtEvent {
  type: "thought";
  content: string;
}

/** A piece of the model's visible text. */
export interface TokenEvent {
  type: "token";
  content: string;
}

/**
 * The last `chars` characters of text this step streamed were the model's reasoning after all: its
 * chat template opened `<think>` itself, so only the closing `</think>` showed where reasoning ended.
 * The Stage moves them into a thought; the model is never sent them as its answer.
 */
export interface LateThoughtEvent {
  type: "late_thought";
  chars: number;
}

/** A tool started. Paired with its `tool_result` by `id`. */
export interface ToolCallEvent {
  type: "tool_call";
  id: string;
  name: string;
  input: unknown;
  /** Model step of the turn (1-based); calls of one step run in parallel. */
  step: number;
  /** Epoch milliseconds when the tool started. */
  started_at: number;
}

/** A tool finished. `output` is exactly what the model was given. */
export interface ToolResultEvent {
  type: "tool_result";
  id: string;
  name: string;
  output: string;
  /** False when the tool failed or refused; the model still sees `output`. */
  ok: boolean;
  duration_ms: number;
  /** Extra facts for the UI that the model does not see (sizes, truncation, resolved path). */
  details?: Record<string, unknown>;
}

/** The agent read a skill's SKILL.md: that skill is now active. */
export interface SkillEvent {
  type: "skill";
  name: string;
  location: string;
  /** The core tools the skill allows while it is active (frontmatter `allowed-tools`); absent: no limit. */
  allowed_tools?: string[];
  /** The commands `terminal` may start with while the skill is active (`Bash(git:*)`); absent: any. */
  allowed_commands?: string[];
}

/** The system prompt differs from this session's previous turn: which sections changed. */
export interface PrefixEvent {
  type: "prefix";
  changed: string[];
}

/**
 * Older turns of the session were summarized to fit the model's context budget. The summary and the
 * skills loaded in those turns replace them in what the model is sent; the session file keeps them all.
 */
export interface CompactionEvent {
  type: "compaction";
  /** How many turns, from the session's start, the summary stands for. */
  turns: number;
  summary: string;
  /** Skills loaded in the summarized turns, carried over whole. */
  skills: string[];
  /** True when the user asked for it; false when the context budget was exceeded. */
  forced: boolean;
}

/**
 * Something a sub-agent did, streamed live under the `delegate` call that started it (`call_id`).
 * Nested delegations nest: the inner event is itself a `delegate` event. The parent's model never
 * sees these; it gets only the sub-agent's final answer as the call's result.
 */
export interface DelegateEvent {
  type: "delegate";
  call_id: string;
  agent: string;
  /** 1 for a sub-agent of the main agent, 2 for one of its sub-agents... */
  depth: number;
  event: ChatEvent;
}

/** Token usage of one model request, where the provider reports it. */
export interface UsageEvent {
  type: "usage";
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
}

/** The turn's answer. The last event of a successful turn. */
export interface FinalEvent {
  type: "final";
  content: string;
  duration_ms: number;
  /** "length": the model hit its output token limit, so the answer is cut where it stopped. */
  finish_reason?: "length";
}

/** The turn failed. The last event of a failed turn. */
export interface ErrorEvent {
  type: "error";
  message: string;
  /** A stable machine-readable reason, e.g. `model_not_configured`, `model_timeout`. */
  code: ChatErrorCode;
}

export type ChatErrorCode =
  | "model_not_configured"
  | "model_unreachable"
  | "model_auth"
  | "model_error"
  | "model_timeout"
  | "model_bad_response"
  /** The server turned the request away for now (HTTP 429). */
  | "rate_limited"
  /** The conversation is longer than the model's context window. */
  | "context_too_long"
  /** The model or server does not take tools. */
  | "tools_unsupported"
  | "aborted"
  | "storage"
  | "internal";

/** The tools whose calls an approval policy governs (`APPROVALS.json`). */
export type GatedTool = "terminal" | "python_repl" | "fetch_url" | "delegate";

/**
 * A call waits for the user: the turn is paused until `POST /api/approvals/:id` decides, the time
 * runs out (denied) or the turn is stopped. Follows the call's `tool_call`; nothing has run yet.
 */
export interface ApprovalRequestEvent {
  type: "approval_request";
  id: string;
  call_id: string;
  tool: GatedTool;
  /** What would run, exactly: the command, the code, the URL, or the role and task. */
  subject: string;
  /** The skill active when the call was made, if any. */
  skill?: string;
  /** Where it would run, e.g. "bubblewrap sandbox, no network". */
  sandbox: string;
  /** The allow rule "Always allow" would add (editable before saving). */
  proposal: string;
  /** Epoch milliseconds when an undecided request is denied. */
  expires_at: number;
}

/** How a governed call was decided, by whom, and by which rule. */
export interface ApprovalEvent {
  type: "approval";
  /** The request's id; for a decision by rule, `rule:<call_id>`. */
  id: string;
  call_id: string;
  tool: GatedTool;
  decision: "approved" | "denied";
  by: "user" | "rule" | "timeout" | "stop";
  /** The rule that decided, or the one the user added with "Always allow". */
  rule?: string;
  /** The user's reason for a denial (the model reads it). */
  reason?: string;
  /** Epoch milliseconds. */
  at: number;
}

export type ChatEvent =
  | SessionEvent
  | ApprovalRequestEvent
  | ApprovalEvent
  | ThoughtEvent
  | TokenEvent
  | LateThoughtEvent
  | ToolCallEvent
  | ToolResultEvent
  | SkillEvent
  | PrefixEvent
  | CompactionEvent
  | DelegateEvent
  | UsageEvent
  | FinalEvent
  | ErrorEvent;

export type ChatEventType = ChatEvent["type"];

/**
 * Events the backend pushes to the UI on `GET /api/events` (an EventSource stream): refresh a list,
 * a file changed on disk, a toast to show.
 */
export type UiEvent =
  | { type: "refresh"; target: "skills" | "files" | "agents" }
  | { type: "file_changed"; path: string }
  /** The reviewer left a review in this session. */
  | { type: "review"; session_id: string }
  | { type: "toast"; message: string; level: "info" | "warning" };
