/**
 * What the Stage shows: turns made of blocks. One reducer, `applyEvent`, builds them from the live
 * event stream and from a stored session (`turnsFromEntries` applies the events the session stored),
 * so a past session replays exactly as it streamed.
 */
import { type ApprovalEvent, type ApprovalRequestEvent, type Attachment, type BranchTurn, type ChangedFile, type ChatErrorCode, type ChatEvent, compactionEventOf, type HookRunEvent, type SessionEntry } from "@mini-openclaw/protocol";
import { assertNever } from "./utils";

export type Block =
  /** `id`: the block id it streamed under (sessions stored before blocks have none). */
  | { kind: "thought"; text: string; id?: string; /** How long it took, once the thought ended (thought_end). */ ms?: number }
  | {
      kind: "text";
      text: string;
      id?: string;
      partial?: boolean;
      interrupted?: boolean;
      /** The model hit its output token limit: the answer stops here. */
      cutByLimit?: boolean;
    }
  | {
      kind: "tool";
      id: string;
      name: string;
      /** An MCP tool: its server and its own name there. */
      mcp?: { server: string; tool: string };
      input: unknown;
      /** Epoch milliseconds when the call started (sessions from before have none). */
      startedAt?: number;
      output?: string;
      ok?: boolean;
      /** From its start to its result: any wait for approval included. */
      durationMs?: number;
      details?: Record<string, unknown>;
      running: boolean;
      /** For `delegate` calls: the sub-agent's own turn (its task, thoughts, tools and answer). */
      sub?: SubAgent;
      /** The call was governed by the approval policy: what was asked, and how it was decided. */
      approval?: { request?: ApprovalRequestEvent; decision?: ApprovalEvent };
      /** The files the call created, modified or deleted, and the change id that reverts them. */
      changes?: { change: string; files: ChangedFile[]; more?: number; untracked?: string[] };
      /** The user's hooks that ran on this call (PreToolUse, PostToolUse...), in order. */
      hooks?: HookRunEvent[];
    }
  /** A hook's run on the turn itself (its start, the message, the stop), not on a call. */
  | { kind: "hook"; run: HookRunEvent }
  /** A tool call the model is writing (its arguments so far); its card replaces it once the call is made. */
  | { kind: "tool_input"; id: string; name: string; text: string }
  | { kind: "skill"; name: string; location: string; allowedTools?: string[]; allowedCommands?: string[] }
  | { kind: "error"; message: string; code: ChatErrorCode }
  | { kind: "prefix"; changed: string[] }
  /** The user's message into the running turn (a steer): the model went on from it. */
  | { kind: "steer"; text: string }
  /** The reviewer's look at this turn: `advice` went to the agent's next turn, `record` to no model. */
  | { kind: "review"; advice: string; record: string }
  /** The turn went to another model profile than meant (a failover, or the session's profile was deleted). */
  | { kind: "model_switch"; why: "failover" | "profile_deleted"; from: string; to: string; reason: string }
  /** Earlier turns were summarized for the model (they stay on screen and in the file). */
  | { kind: "compaction"; turns: number; summary: string; skills: string[]; forced: boolean };

export type TurnStatus = "streaming" | "done" | "error" | "stopped";

export interface SubAgent {
  agent: string;
  depth: number;
  turn: Turn;
}

export interface Turn {
  key: string;
  user: string;
  /** Files and images sent with the user's message. */
  attachments?: Attachment[];
  blocks: Block[];
  status: TurnStatus;
  durationMs?: number;
  /** Tokens of the turn's own requests; `cost` in US dollars where the profile has prices. */
  usage?: { input: number; output: number; cached: number; cost?: number };
  /** The profile and model of the turn's last request (sessions before profiles name only the model). */
  model?: { profile?: string; name: string };
  /** The model is sent a summary in place of this turn. */
  compacted?: boolean;
  /** Where the turn sits in the session's tree (a stored turn; a live one gets it when the session reloads). */
  branch?: BranchTurn;
  /** The user corrected the message after it ran (the model is sent the correction from then on). */
  edited?: boolean;
}

/** Stored turns with their place in the tree: `branch` has one entry per turn, in order (the server's `SessionDetail.branch`). */
export function withBranches(turns: Turn[], branch: BranchTurn[]): Turn[] {
  return turns.map((turn, i) => (branch[i] ? { ...turn, branch: branch[i] } : turn));
}

export function newTurn(user: string, key: string, attachments: Attachment[] = []): Turn {
  return { key, user, blocks: [], status: "streaming", ...(attachments.length > 0 ? { attachments } : {}) };
}

/** A piece of text or thought: onto its block (by id), or, in a stream without blocks, onto the last block of its kind. */
function appendText(blocks: Block[], kind: "thought" | "text", text: string, id?: string): Block[] {
  const last = blocks[blocks.length - 1];
  if (last && last.kind === kind && last.id === id) return [...blocks.slice(0, -1), { ...last, text: last.text + text }];
  return [...blocks, id !== undefined ? { kind, text, id } : { kind, text }];
}

function appendToolInput(blocks: Block[], id: string, text: string): Block[] {
  return blocks.map((b) => (b.kind === "tool_input" && b.id === id ? { ...b, text: b.text + text } : b));
}

/** A sub-agent's live event, applied under the delegate call it belongs to. */
function applyDelegateEvent(blocks: Block[], event: Extract<ChatEvent, { type: "delegate" }>): Block[] {
  return blocks.map((block) => {
    if (block.kind !== "tool" || block.id !== event.call_id) return block;
    const task = typeof (block.input as { task?: unknown })?.task === "string" ? (block.input as { task: string }).task : "";
    const sub = block.sub ?? { agent: event.agent, depth: event.depth, turn: newTurn(task, `${block.id}-sub`) };
    return { ...block, sub: { ...sub, turn: applyEvent(sub.turn, event.event) } };
  });
}

/** The last `chars` characters of streamed text (of block `id`, when named) become a thought (the model's template had opened `<think>`). */
function textToThought(blocks: Block[], chars: number, id?: string): Block[] {
  const index = blocks.findLastIndex((b) => b.kind === "text" && (id === undefined || b.id === id));
  if (index < 0) return blocks;
  const block = blocks[index] as Extract<Block, { kind: "text" }>;
  const keep = block.text.slice(0, Math.max(0, block.text.length - chars));
  const thought = block.text.slice(keep.length);
  const previous = blocks[index - 1];
  const replaced: Block[] = keep ? [{ ...block, text: keep }] : [];
  if (previous?.kind === "thought" && !keep) {
    return [...blocks.slice(0, index - 1), { ...previous, text: previous.text + thought }, ...blocks.slice(index + 1)];
  }
  return [...blocks.slice(0, index), ...replaced, { kind: "thought", text: thought, ...(block.id !== undefined && !keep ? { id: block.id } : {}) }, ...blocks.slice(index + 1)];
}

/** One streamed event applied to the turn it belongs to. Pure: returns a new turn. */
export function applyEvent(turn: Turn, event: ChatEvent): Turn {
  switch (event.type) {
    case "session":
      return turn;
    case "thought":
      return { ...turn, blocks: appendText(turn.blocks, "thought", event.content, event.block) };
    case "token":
      return { ...turn, blocks: appendText(turn.blocks, "text", event.content, event.block) };
    // A block shows from its first piece; its start and end change nothing on screen.
    case "text_start":
    case "text_end":
    case "thought_start":
    case "tool_input_end":
      return turn;
    case "thought_end":
      if (event.ms === undefined) return turn;
      return { ...turn, blocks: turn.blocks.map((b) => (b.kind === "thought" && b.id === event.block ? { ...b, ms: event.ms } : b)) };
    case "tool_input_start":
      return { ...turn, blocks: [...turn.blocks, { kind: "tool_input", id: event.block, name: event.name, text: "" }] };
    case "tool_input_delta":
      return { ...turn, blocks: appendToolInput(turn.blocks, event.block, event.content) };
    case "late_thought":
      return { ...turn, blocks: textToThought(turn.blocks, event.chars, event.block) };
    case "tool_call":
      return {
        ...turn,
        // The call is made: its card stands where the model wrote it.
        blocks: [...turn.blocks.filter((b) => b.kind !== "tool_input"), { kind: "tool", id: event.id, name: event.name, ...(event.mcp ? { mcp: event.mcp } : {}), input: event.input, startedAt: event.started_at, running: true }],
      };
    case "tool_result":
      return {
        ...turn,
        blocks: turn.blocks.some((b) => b.kind === "tool" && b.id === event.id)
          ? turn.blocks.map((b) =>
              b.kind === "tool" && b.id === event.id
                ? {
                    ...b,
                    output: event.output,
                    ok: event.ok,
                    durationMs: event.duration_ms,
                    details: event.details,
                    running: false,
                  }
                : b,
            )
          : [
              ...turn.blocks,
              { kind: "tool", id: event.id, name: event.name, input: null, output: event.output, ok: event.ok, durationMs: event.duration_ms, running: false },
            ],
      };
    case "skill":
      return {
        ...turn,
        blocks: [
          ...turn.blocks,
          { kind: "skill", name: event.name, location: event.location, allowedTools: event.allowed_tools, ...(event.allowed_commands ? { allowedCommands: event.allowed_commands } : {}) },
        ],
      };
    case "prefix":
      return { ...turn, blocks: [...turn.blocks, { kind: "prefix", changed: event.changed }] };
    case "delegate":
      return { ...turn, blocks: applyDelegateEvent(turn.blocks, event) };
    case "approval_request":
      return { ...turn, blocks: turn.blocks.map((b) => (b.kind === "tool" && b.id === event.call_id ? { ...b, approval: { ...b.approval, request: event } } : b)) };
    case "approval":
      return { ...turn, blocks: turn.blocks.map((b) => (b.kind === "tool" && b.id === event.call_id ? { ...b, approval: { ...b.approval, decision: event } } : b)) };
    case "steer":
      return { ...turn, blocks: [...turn.blocks, { kind: "steer", text: event.content }] };
    case "hook":
      // Under the call it acted on, when it is on screen; otherwise a line of the turn.
      return event.call_id && turn.blocks.some((b) => b.kind === "tool" && b.id === event.call_id)
        ? { ...turn, blocks: turn.blocks.map((b) => (b.kind === "tool" && b.id === event.call_id ? { ...b, hooks: [...(b.hooks ?? []), event] } : b)) }
        : { ...turn, blocks: [...turn.blocks, { kind: "hook", run: event }] };
    case "changes":
      return { ...turn, blocks: turn.blocks.map((b) => (b.kind === "tool" && b.id === event.call_id ? { ...b, changes: { change: event.change, files: event.files, more: event.more, untracked: event.untracked ?? (event.incomplete ? [event.incomplete] : undefined) } } : b)) };
    case "compaction":
      return { ...turn, blocks: [...turn.blocks, { kind: "compaction", turns: event.turns, summary: event.summary, skills: event.skills, forced: event.forced }] };
    case "step_start":
      return { ...turn, model: { name: event.model, ...(event.profile ? { profile: event.profile } : {}) } };
    case "step_end":
      return turn;
    case "model_switch":
      return { ...turn, blocks: [...turn.blocks, { kind: "model_switch", why: event.why, from: event.from, to: event.to, reason: event.reason }] };
    case "usage": {
      const usage = turn.usage ?? { input: 0, output: 0, cached: 0 };
      const cost = event.cost !== undefined || usage.cost !== undefined ? (usage.cost ?? 0) + (event.cost ?? 0) : undefined;
      return {
        ...turn,
        usage: { input: usage.input + event.input_tokens, output: usage.output + event.output_tokens, cached: usage.cached + event.cached_tokens, ...(cost !== undefined ? { cost } : {}) },
      };
    }
    case "final": {
      const hasText = turn.blocks.some((b) => b.kind === "text" && b.text !== "");
      const withText = !hasText && event.content ? [...turn.blocks, { kind: "text" as const, text: event.content }] : turn.blocks;
      const blocks = event.finish_reason === "length" ? markLastText(withText, { cutByLimit: true }) : withText;
      return { ...turn, blocks, status: "done", durationMs: event.duration_ms };
    }
    case "error":
      return {
        ...turn,
        blocks: [...markLastText(turn.blocks, { partial: true }), { kind: "error", message: event.message, code: event.code }],
        status: event.code === "aborted" ? "stopped" : "error",
      };
    default:
      return assertNever(event);
  }
}

/** Marks the first `count` turns as summarized for the model. */
export function markCompacted(turns: Turn[], count: number): Turn[] {
  return turns.map((turn, index) => (index < count && !turn.compacted ? { ...turn, compacted: true } : turn));
}

/** The last text block, marked: a failed turn's text is what streamed before it failed. */
function markLastText(blocks: Block[], mark: { partial?: true; interrupted?: true; cutByLimit?: true }): Block[] {
  const index = blocks.findLastIndex((b) => b.kind === "text");
  if (index < 0) return mark.interrupted ? [...blocks, { kind: "text", text: "", ...mark }] : blocks;
  return blocks.map((b, i) => (i === index ? { ...b, ...mark } : b));
}

/**
 * A stored session as turns: each user entry starts a turn and its stored events are applied to it
 * by `applyEvent`, as they were live. A turn whose events end without `final` or `error` was cut
 * short (the server stopped while it streamed) unless it is the session's last and still `running`.
 */
export function turnsFromEntries(entries: SessionEntry[], running = false): Turn[] {
  let turns: Turn[] = [];
  let compacted = 0;
  const update = (change: (turn: Turn) => Turn) => {
    if (turns.length > 0) turns[turns.length - 1] = change(turns[turns.length - 1]);
  };
  entries.forEach((entry, index) => {
    switch (entry.type) {
      case "user":
        turns.push({ ...newTurn(entry.content, `t${index}`, entry.attachments), ...(entry.edited ? { edited: true } : {}) });
        return;
      case "event":
        update((turn) => applyEvent(turn, entry.event));
        return;
      case "compaction":
        update((turn) => applyEvent(turn, compactionEventOf(entry)));
        compacted = Math.max(compacted, entry.covers_turns);
        return;
      case "review":
        update((turn) => ({ ...turn, blocks: [...turn.blocks, { kind: "review", advice: entry.advice, record: entry.content }] }));
        return;
      case "header":
      case "snapshot":
      case "meta":
        return;
      default:
        assertNever(entry);
    }
  });
  turns = turns.map((turn, i) =>
    turn.status === "streaming" && !(running && i === turns.length - 1)
      ? { ...turn, status: "stopped", blocks: markLastText(turn.blocks, { partial: true, interrupted: true }) }
      : turn,
  );
  if (compacted > 0) turns = markCompacted(turns, compacted);
  return turns;
}
