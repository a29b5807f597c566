/**
 * The chat stream: every event a turn sends (`POST /api/chat`, `GET /api/sessions/:id/stream`), as one
 * discriminated union on `type`. Each is a zod schema and its TS type is inferred from it, so the
 * backend (which writes and stores them) and the frontend (which reads and replays them) share one
 * definition. Both switch over `type` exhaustively.
 * On the wire each event is one SSE frame: `id: <event id>\ndata: {json}\n\n`.
 */
import { z } from "zod";
import { builtinToolNames, gatedToolNames } from "./builtin-tools.js";
import { taskRunSchema } from "./task-runs.js";

/** First event of every turn: which session and which turn it belongs to. */
export const sessionEventSchema = z.object({
  type: z.literal("session"),
  session_id: z.string(),
  /** True when this turn started the session (the skills snapshot was refreshed). */
  created: z.boolean(),
  /** The turn's id, as stored in its entries (`branch[].turn` of the session reply). */
  turn: z.number().int().positive().optional(),
});

/**
 * What the model writes streams in blocks, as the AI SDK's UI stream and pi's events do: a block of
 * reasoning (a thought), of answer text, or of a tool call's arguments, each with an id unique within
 * its turn (a sub-agent's within its `delegate` events), opened by `*_start`, filled by deltas, closed
 * by `*_end`. Sessions stored before blocks have deltas without `block` and no start or end.
 */
const blockId = z.string().min(1);

/** A block of the model's reasoning begins. */
export const thoughtStartEventSchema = z.object({ type: z.literal("thought_start"), block: blockId });
/** A piece of the model's reasoning (its thought block's delta). */
export const thoughtEventSchema = z.object({ type: z.literal("thought"), content: z.string(), block: blockId.optional() });
export const thoughtEndEventSchema = z.object({
  type: z.literal("thought_end"),
  block: blockId,
  /** How long the model thought: from the block's first piece to its end, in ms (absent in turns recorded before 2026-12-07). */
  ms: z.number().int().nonnegative().optional(),
});

/** A block of the model's visible text begins. */
export const textStartEventSchema = z.object({ type: z.literal("text_start"), block: blockId });
/** A piece of the model's visible text (its text block's delta). */
export const tokenEventSchema = z.object({ type: z.literal("token"), content: z.string(), block: blockId.optional() });
export const textEndEventSchema = z.object({ type: z.literal("text_end"), block: blockId });

/** The model begins writing a tool call: its name, and its id when the server gave one already. */
export const toolInputStartEventSchema = z.object({ type: z.literal("tool_input_start"), block: blockId, name: z.string(), call_id: z.string().optional() });
/** A piece of a tool call's arguments, as the model writes them (JSON text, not yet whole). */
export const toolInputDeltaEventSchema = z.object({ type: z.literal("tool_input_delta"), block: blockId, content: z.string() });
export const toolInputEndEventSchema = z.object({ type: z.literal("tool_input_end"), block: blockId });

/**
 * Text this step streamed was the model's reasoning after all: its chat template opened `<think>`
 * itself, so only the closing `</think>` showed where reasoning ended. `block` names the text block
 * that becomes a thought (its last `chars` characters: all of it, in a stream with blocks); sessions
 * stored before blocks say only `chars`, counted back from the step's text. The model is never sent
 * that text as its answer.
 */
export const lateThoughtEventSchema = z.object({ type: z.literal("late_thought"), chars: z.number().int().positive(), block: blockId.optional() });

/** A tool started. Paired with its `tool_result` by `id`. */
export const toolCallEventSchema = z.object({
  type: z.literal("tool_call"),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
  /** Model step of the turn (1-based); calls of one step run in parallel. */
  step: z.number().int().nonnegative(),
  /** Epoch milliseconds when the tool started. */
  started_at: z.number(),
  /** For an MCP tool: its server and its own name there. */
  mcp: z.object({ server: z.string(), tool: z.string() }).optional(),
});

/** A tool finished. `output` is exactly what the model was given. */
export const toolResultEventSchema = z.object({
  type: z.literal("tool_result"),
  id: z.string(),
  name: z.string(),
  output: z.string(),
  /** False when the tool failed, refused or was skipped; the model still sees `output`. */
  ok: z.boolean(),
  duration_ms: z.number(),
  /** Extra facts for the UI that the model does not see (sizes, truncation, resolved path). */
  details: z.record(z.string(), z.unknown()).optional(),
});

/** A file a tool call changed, as its `changes` event lists it (the paths only, never the contents). */
export const changedFileSchema = z.object({
  /** Data-root-relative. */
  path: z.string(),
  kind: z.enum(["created", "modified", "deleted"]),
  /** False when its earlier state was not kept (over 10 MB, a link, not a regular file): then `reason` says why. */
  restorable: z.boolean(),
  reason: z.string().optional(),
});

/**
 * The files a `terminal`, `python_repl` or `delegate` call created, modified or deleted under the
 * folders the sandbox can write, whatever made the change. Follows the call's `tool_result`; `change`
 * is what `POST /api/changes/revert` takes to put one of them back.
 */
export const changesEventSchema = z.object({
  type: z.literal("changes"),
  call_id: z.string(),
  change: z.string(),
  /** At most 500 files; `more` says how many others the record holds (Rewind puts them back too). */
  files: z.array(changedFileSchema),
  more: z.number().int().positive().optional(),
  /** What the call may have changed that cannot be known, each with why ("not tracked: …" in the UI). */
  untracked: z.array(z.string()).optional(),
  /** Sessions written before `untracked`: the scan could not see every file (the cap, the time limit). */
  incomplete: z.string().optional(),
});

/** The agent read a skill's SKILL.md: that skill is now active. */
export const skillEventSchema = z.object({
  type: z.literal("skill"),
  name: z.string(),
  location: z.string(),
  /** The core tools the skill allows while it is active (frontmatter `allowed-tools`); absent: no limit. */
  allowed_tools: z.array(z.string()).optional(),
  /** The commands `terminal` may start with while the skill is active (`Bash(git:*)`); absent: any. */
  allowed_commands: z.array(z.string()).optional(),
});

/** The system prompt differs from this session's previous turn: which sections changed. */
export const prefixEventSchema = z.object({ type: z.literal("prefix"), changed: z.array(z.string()) });

/**
 * Older turns of the session were summarized to fit the model's context budget. The summary and the
 * skills loaded in those turns replace them in what the model is sent; the session file keeps them all.
 */
export const compactionEventSchema = z.object({
  type: z.literal("compaction"),
  /** How many turns, from the session's start, the summary stands for. */
  turns: z.number(),
  summary: z.string(),
  /** Skills loaded in the summarized turns, carried over whole. */
  skills: z.array(z.string()),
  /** True when the user asked for it; false when the context budget was exceeded. */
  forced: z.boolean(),
});

/**
 * A model request begins (a step of the turn: its deltas, its usage and its tool calls follow), and
 * ends, as the AI SDK's `start-step` / `finish-step`. A step that fails has no end: the turn's `error` follows.
 */
export const stepStartEventSchema = z.object({
  type: z.literal("step_start"),
  /** 1-based, as `tool_call.step`. */
  step: z.number().int().positive(),
  /** The model the request names. */
  model: z.string(),
  /** The model profile it went to (absent in sessions before profiles: the one endpoint there was). */
  profile: z.string().optional(),
});
export const stepEndEventSchema = z.object({
  type: z.literal("step_end"),
  step: z.number().int().positive(),
  /** Why the model stopped, as the server said (`stop`, `tool_calls`, `length`, ...), when it said. */
  finish_reason: z.string().optional(),
  /** The model that answered, when the server named it. */
  response_model: z.string().optional(),
});

/** Token usage of one model request, where the provider reports it. */
export const requestUsageSchema = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  cached_tokens: z.number(),
  /** Output tokens spent reasoning, where the server says (part of `output_tokens`). */
  reasoning_tokens: z.number().optional(),
  /** The profile and model that answered (absent in sessions before profiles). */
  profile: z.string().optional(),
  model: z.string().optional(),
  /** US dollars, from the profile's prices when the request was made; absent without prices. */
  cost: z.number().optional(),
});
export type RequestUsage = z.infer<typeof requestUsageSchema>;

export const usageEventSchema = requestUsageSchema.extend({ type: z.literal("usage") });

/**
 * The turn goes to another model profile than the one it was meant for, said, never silent:
 * `failover`: the step's request failed before anything streamed (endpoint down, 429, 5xx, or silent
 * past the timeout) and goes to the profile's next fallback; `profile_deleted`: the session's profile
 * was deleted, so the session is back on the default (said once, by the turn that found it gone).
 */
export const modelSwitchEventSchema = z.object({
  type: z.literal("model_switch"),
  why: z.enum(["failover", "profile_deleted"]),
  /** The step it happened at (a failover). */
  step: z.number().int().positive().optional(),
  from: z.string(),
  to: z.string(),
  /** Why `from` was left, in words (its error). */
  reason: z.string(),
});

/**
 * The user steered the running turn: their message reached the model at a step boundary (after the
 * results of the calls that ran; calls not yet started were skipped). The model goes on from it.
 */
export const steerEventSchema = z.object({
  type: z.literal("steer"),
  /** The queue item it was (`POST /api/chat` with `queue: "steer"` answered with this id). */
  id: z.string(),
  content: z.string(),
});

/** The turn's answer. The last event of a successful turn. */
export const finalEventSchema = z.object({
  type: z.literal("final"),
  content: z.string(),
  duration_ms: z.number(),
  /** "length": the model hit its output token limit, so the answer is cut where it stopped. */
  finish_reason: z.literal("length").optional(),
});

export const chatErrorCodeSchema = z.enum([
  "model_not_configured",
  "model_unreachable",
  "model_auth",
  "model_error",
  "model_timeout",
  "model_bad_response",
  /** The server turned the request away for now (HTTP 429). */
  "rate_limited",
  /** The conversation is longer than the model's context window. */
  "context_too_long",
  /** The model or server does not take tools. */
  "tools_unsupported",
  /** The message has images and its model profile is not marked as taking them: nothing was sent. */
  "vision_unsupported",
  /** Stop, or the server shutting down. */
  "aborted",
  /** A hook ended the turn: a `UserPromptSubmit` hook blocked the message, or a hook said `continue: false`. */
  "hook_stopped",
  "storage",
  "internal",
]);

/** The turn failed or was stopped. The last event of such a turn. */
export const errorEventSchema = z.object({
  type: z.literal("error"),
  message: z.string(),
  /** A stable machine-readable reason, e.g. `model_not_configured`, `model_timeout`, `aborted`. */
  code: chatErrorCodeSchema,
});

/** The built-in tools whose calls an approval policy governs (`APPROVALS.json`). */
export const gatedToolSchema = z.enum(gatedToolNames);

/**
 * A call that waits for approval: a governed core tool above, an MCP tool (`mcp__<server>__<tool>`, its
 * `mcp` section), or any built-in tool a `PreToolUse` hook said to ask about.
 */
export const approvalToolSchema = z.union([z.enum(builtinToolNames as [string, ...string[]]), z.templateLiteral(["mcp__", z.string()])]);

/**
 * A call waits for the user: the turn is paused until `POST /api/approvals/:id` decides, the time
 * runs out (denied) or the turn is stopped. Follows the call's `tool_call`; nothing has run yet.
 */
export const approvalRequestEventSchema = z.object({
  type: z.literal("approval_request"),
  id: z.string(),
  call_id: z.string(),
  tool: approvalToolSchema,
  /** What would run, exactly: the command, the code, the URL, the role and task, or an MCP tool's arguments. */
  subject: z.string(),
  /** The skill active when the call was made, if any. */
  skill: z.string().optional(),
  /** Where it would run, e.g. "bubblewrap sandbox, no network". */
  sandbox: z.string(),
  /** The allow rule "Always allow" would add (editable before saving); empty when none can (a hook asked). */
  proposal: z.string(),
  /** A `PreToolUse` hook asked for this approval: its reason. */
  hook_reason: z.string().optional(),
  /** Epoch milliseconds when an undecided request is denied. */
  expires_at: z.number(),
});

/** How a governed call was decided, by whom, and by which rule. */
export const approvalEventSchema = z.object({
  type: z.literal("approval"),
  /** The request's id; for a decision by rule, `rule:<call_id>`. */
  id: z.string(),
  call_id: z.string(),
  tool: approvalToolSchema,
  decision: z.enum(["approved", "denied"]),
  by: z.enum(["user", "rule", "timeout", "stop"]),
  /** The rule that decided, or the one the user added with "Always allow". */
  rule: z.string().optional(),
  /** The user's reason for a denial (the model reads it). */
  reason: z.string().optional(),
  /** Epoch milliseconds. */
  at: z.number(),
});

/** The lifecycle events hooks run on (`HOOKS.json`, Claude Code's names, and the workbench's own `TaskRun`, `MemoryWrite`). */
export const hookEventNames = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "Stop",
  "SubagentStop",
  "PreCompact",
  "Notification",
  "SessionEnd",
  "TaskRun",
  "MemoryWrite",
] as const;
export const hookEventNameSchema = z.enum(hookEventNames);
export type HookEventName = z.infer<typeof hookEventNameSchema>;

/**
 * What a hook decided: `allow`/`deny`/`ask` a tool call (PreToolUse), `block` the prompt (UserPromptSubmit),
 * the result (PostToolUse: marked failed) or the stop (Stop: the agent goes on), `stop` the turn (`continue: false`).
 */
export const hookDecisionSchema = z.enum(["allow", "deny", "ask", "block", "stop"]);
export type HookDecision = z.infer<typeof hookDecisionSchema>;

/**
 * One hook run, under the call or the message it acted on: which hook, how long, what it decided and
 * what it printed. `status`: `ok` (exit 0), `blocked` (exit 2), `failed` (another exit code, not found,
 * invalid JSON, killed at its timeout: a non-blocking error, `error` says which).
 */
export const hookRunEventSchema = z.object({
  type: z.literal("hook"),
  id: z.string(),
  event: hookEventNameSchema,
  /** The tool call it acted on (PreToolUse, PostToolUse). */
  call_id: z.string().optional(),
  /** The hook's command, as configured. */
  command: z.string(),
  /** Where it is configured: `HOOKS.json`, or `skill:<name>` for a skill's `hooks/hooks.json`. */
  source: z.string(),
  matcher: z.string().optional(),
  started_at: z.number(),
  duration_ms: z.number(),
  /** Null when it never exited by itself (not started, or killed). */
  exit_code: z.number().int().nullable(),
  status: z.enum(["ok", "blocked", "failed"]),
  decision: hookDecisionSchema.optional(),
  /** Why (a block's stderr, a JSON `reason`, `permissionDecisionReason` or `stopReason`). */
  reason: z.string().optional(),
  /** Text the hook added to what the model reads next. */
  additional_context: z.string().optional(),
  /** PreToolUse: the input the tool ran with instead of the model's. */
  updated_input: z.unknown().optional(),
  /** What went wrong for a `failed` run. */
  error: z.string().optional(),
  /** Why what it decided was not acted on (a Stop hook past the turn's bound). */
  note: z.string().optional(),
  /** What it printed (stdout, then stderr), capped for showing; empty when it asked `suppressOutput`. */
  output: z.string(),
});
export type HookRunEvent = z.infer<typeof hookRunEventSchema>;

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

// A recursive schema needs its type spelled once (TS cannot infer a type from its own initializer);
// the type test (`schemas.test.ts`) checks it against what the schema parses.
export const delegateEventSchema: z.ZodType<DelegateEvent> = z.object({
  type: z.literal("delegate"),
  call_id: z.string(),
  agent: z.string(),
  depth: z.number(),
  get event(): z.ZodType<ChatEvent> {
    return chatEventSchema;
  },
}).meta({ id: "DelegateEvent" });

const eventSchemas = [
  sessionEventSchema,
  approvalRequestEventSchema,
  approvalEventSchema,
  thoughtStartEventSchema,
  thoughtEventSchema,
  thoughtEndEventSchema,
  textStartEventSchema,
  tokenEventSchema,
  textEndEventSchema,
  toolInputStartEventSchema,
  toolInputDeltaEventSchema,
  toolInputEndEventSchema,
  lateThoughtEventSchema,
  toolCallEventSchema,
  toolResultEventSchema,
  skillEventSchema,
  prefixEventSchema,
  compactionEventSchema,
  stepStartEventSchema,
  stepEndEventSchema,
  usageEventSchema,
  modelSwitchEventSchema,
  steerEventSchema,
  changesEventSchema,
  hookRunEventSchema,
  finalEventSchema,
  errorEventSchema,
] as const;

export type SessionEvent = z.infer<typeof sessionEventSchema>;
export type ThoughtEvent = z.infer<typeof thoughtEventSchema>;
export type TokenEvent = z.infer<typeof tokenEventSchema>;
export type LateThoughtEvent = z.infer<typeof lateThoughtEventSchema>;
export type ThoughtStartEvent = z.infer<typeof thoughtStartEventSchema>;
export type ThoughtEndEvent = z.infer<typeof thoughtEndEventSchema>;
export type TextStartEvent = z.infer<typeof textStartEventSchema>;
export type TextEndEvent = z.infer<typeof textEndEventSchema>;
export type ToolInputStartEvent = z.infer<typeof toolInputStartEventSchema>;
export type ToolInputDeltaEvent = z.infer<typeof toolInputDeltaEventSchema>;
export type ToolInputEndEvent = z.infer<typeof toolInputEndEventSchema>;
export type ToolCallEvent = z.infer<typeof toolCallEventSchema>;
export type ToolResultEvent = z.infer<typeof toolResultEventSchema>;
export type SkillEvent = z.infer<typeof skillEventSchema>;
export type PrefixEvent = z.infer<typeof prefixEventSchema>;
export type CompactionEvent = z.infer<typeof compactionEventSchema>;
export type UsageEvent = z.infer<typeof usageEventSchema>;
export type ModelSwitchEvent = z.infer<typeof modelSwitchEventSchema>;
export type StepStartEvent = z.infer<typeof stepStartEventSchema>;
export type StepEndEvent = z.infer<typeof stepEndEventSchema>;
export type SteerEvent = z.infer<typeof steerEventSchema>;
export type ChangesEvent = z.infer<typeof changesEventSchema>;
export type ChangedFile = z.infer<typeof changedFileSchema>;
export type FinalEvent = z.infer<typeof finalEventSchema>;
export type ErrorEvent = z.infer<typeof errorEventSchema>;
export type ChatErrorCode = z.infer<typeof chatErrorCodeSchema>;
export type GatedTool = z.infer<typeof gatedToolSchema>;
export type ApprovalTool = z.infer<typeof approvalToolSchema>;
export type ApprovalRequestEvent = z.infer<typeof approvalRequestEventSchema>;
export type ApprovalEvent = z.infer<typeof approvalEventSchema>;

export type ChatEvent = z.infer<(typeof eventSchemas)[number]> | DelegateEvent;

/** Any chat event; unknown types and malformed fields fail. */
export const chatEventSchema: z.ZodType<ChatEvent> = z.union([...eventSchemas, delegateEventSchema]).meta({ id: "ChatEvent" });

export type ChatEventType = ChatEvent["type"];

/** A chat event as it went out: with the id of its SSE frame (ids increase within a session, across its turns). */
export interface NumberedEvent {
  id: number;
  event: ChatEvent;
}

/** How a queued message waits: `follow_up`, the next turn once this one ends; `steer`, into the running turn at its next step. */
export const queueModeSchema = z.enum(["follow_up", "steer"]);

/** One queued message of a session whose turn runs (`POST /api/chat` with `queue`). */
export const queueItemSchema = z.object({
  id: z.string(),
  message: z.string(),
  /** follow_up: runs as the next turn; steer: goes into the running turn at its next step boundary. */
  mode: queueModeSchema,
  /** Sent with `tools: false`: it runs without tools, as the message that queued it asked. */
  tools: z.literal(false).optional(),
  /** Sent with `model`: it goes to this profile only. */
  model: z.string().optional(),
  /** Attachment ids sent with it. */
  attachments: z.array(z.string()).optional(),
  /** Epoch milliseconds. */
  queued_at: z.number(),
});
export type QueueItem = z.infer<typeof queueItemSchema>;

/** What a server toast tells, as data: each kind with the facts a message is made of. */
export const toastNoticeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("model_set"), model: z.string(), base_url: z.string().nullable() }),
  z.object({ kind: z.literal("profile_saved"), name: z.string(), model: z.string() }),
  z.object({ kind: z.literal("profile_deleted"), name: z.string() }),
  z.object({ kind: z.literal("compacted"), turns: z.number().int(), skills: z.array(z.string()) }),
  z.object({ kind: z.literal("compaction_failed"), detail: z.string() }),
  z.object({ kind: z.literal("queued_failed"), detail: z.string() }),
  z.object({ kind: z.literal("skill_skipped"), folder: z.string(), detail: z.string() }),
  /** A file a scheduled run reads as its instructions was changed by a tool: it waits for the user. */
  z.object({ kind: z.literal("standing_order_changed"), file: z.string() }),
  /** The memory helper's turn ended (Save as skill): what it proposed, or why nothing. */
  z.object({ kind: z.literal("proposals_made"), ok: z.boolean(), detail: z.string() }),
]);
export type ToastNotice = z.infer<typeof toastNoticeSchema>;

/**
 * Events the backend pushes to every open UI on `GET /api/events` (an EventSource stream): refresh a
 * list, a file changed on disk, a toast to show, a turn that started or ended anywhere, a queue that changed.
 */
export const uiEventSchema = z.discriminatedUnion("type", [
  /** What the server holds of `target` changed: pages showing it read it again (nothing polls). */
  z.object({ type: z.literal("refresh"), target: z.enum(["skills", "files", "agents", "sessions", "mcp", "approvals", "knowledge", "health", "tasks", "hooks", "proposals"]) }),
  z.object({ type: z.literal("file_changed"), path: z.string() }),
  /** The reviewer left a review in this session. */
  z.object({ type: z.literal("review"), session_id: z.string() }),
  /** Something to tell the user: `notice` says what (for a UI to word in its language), `message` in the server's English. */
  z.object({ type: z.literal("toast"), message: z.string(), level: z.enum(["info", "warning"]), notice: toastNoticeSchema.optional() }),
  /** A turn started or ended in this session (any tab, any client): watchers attach or reload. */
  z.object({ type: z.literal("turn"), session_id: z.string(), running: z.boolean(), turn: z.number().int().positive().optional() }),
  /** The session's queue as it is now. */
  z.object({ type: z.literal("queue"), session_id: z.string(), items: z.array(queueItemSchema) }),
  /**
   * A scheduled task's run ended, or waits for an approval: pages toast it (and notify, if allowed)
   * when `notify` is true (a heartbeat's `HEARTBEAT_OK` is not).
   */
  z.object({ type: z.literal("task_run"), task_name: z.string(), run: taskRunSchema, waiting_approval: z.boolean(), notify: z.boolean() }),
]);
export type UiEvent = z.infer<typeof uiEventSchema>;
