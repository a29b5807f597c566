/**
 * What the Stage shows: turns made of blocks. Built the same way from a live event stream
 * (`applyEvent`) and from a stored session (`turnsFromEntries`), so a past session replays
 * exactly as it streamed.
 */
import type { ChatEvent, SessionEntry } from "@mini-openclaw/protocol";
import { assertNever } from "./utils";

export type Block =
  | { kind: "thought"; text: string }
  | { kind: "text"; text: string; partial?: boolean; interrupted?: boolean }
  | {
      kind: "tool";
      id: string;
      name: string;
      input: unknown;
      output?: string;
      ok?: boolean;
      durationMs?: number;
      details?: Record<string, unknown>;
      running: boolean;
      /** For `delegate` calls: the sub-agent's own turn (its task, thoughts, tools and answer). */
      sub?: SubAgent;
    }
  | { kind: "skill"; name: string; location: string; allowedTools?: string[] }
  | { kind: "error"; message: string; code: string }
  | { kind: "prefix"; changed: string[] }
  /** The reviewer's look at this turn: `advice` went to the agent's next turn, `record` to no model. */
  | { kind: "review"; advice: string; record: string }
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
  blocks: Block[];
  status: TurnStatus;
  durationMs?: number;
  usage?: { input: number; output: number; cached: number };
  /** The model is sent a summary in place of this turn. */
  compacted?: boolean;
}

export function newTurn(user: string, key: string): Turn {
  return { key, user, blocks: [], status: "streaming" };
}

function appendText(blocks: Block[], kind: "thought" | "text", text: string): Block[] {
  const last = blocks[blocks.length - 1];
  if (last && last.kind === kind) return [...blocks.slice(0, -1), { ...last, text: last.text + text }];
  return [...blocks, { kind, text }];
}

/** A delegate call's stored trace (its result's details) as the sub-agent's turn, for replay. */
function subAgentFromDetails(details: Record<string, unknown> | undefined, key: string): SubAgent | undefined {
  if (!details || typeof details.agent !== "string" || !Array.isArray(details.trace)) return undefined;
  const turn = (details.trace as ChatEvent[]).reduce(applyEvent, newTurn(String(details.task ?? ""), key));
  return { agent: details.agent, depth: Number(details.depth ?? 1), turn: { ...turn, status: turn.status === "streaming" ? "done" : turn.status } };
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

/** One streamed event applied to the turn it belongs to. Pure: returns a new turn. */
export function applyEvent(turn: Turn, event: ChatEvent): Turn {
  switch (event.type) {
    case "session":
      return turn;
    case "thought":
      return { ...turn, blocks: appendText(turn.blocks, "thought", event.content) };
    case "token":
      return { ...turn, blocks: appendText(turn.blocks, "text", event.content) };
    case "tool_call":
      return {
        ...turn,
        blocks: [...turn.blocks, { kind: "tool", id: event.id, name: event.name, input: event.input, running: true }],
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
                    sub: b.sub ?? subAgentFromDetails(event.details, `${b.id}-sub`),
                  }
                : b,
            )
          : [
              ...turn.blocks,
              { kind: "tool", id: event.id, name: event.name, input: null, output: event.output, ok: event.ok, durationMs: event.duration_ms, running: false },
            ],
      };
    case "skill":
      return { ...turn, blocks: [...turn.blocks, { kind: "skill", name: event.name, location: event.location, allowedTools: event.allowed_tools }] };
    case "prefix":
      return { ...turn, blocks: [...turn.blocks, { kind: "prefix", changed: event.changed }] };
    case "delegate":
      return { ...turn, blocks: applyDelegateEvent(turn.blocks, event) };
    case "compaction":
      return { ...turn, blocks: [...turn.blocks, { kind: "compaction", turns: event.turns, summary: event.summary, skills: event.skills, forced: event.forced }] };
    case "usage": {
      const usage = turn.usage ?? { input: 0, output: 0, cached: 0 };
      return {
        ...turn,
        usage: { input: usage.input + event.input_tokens, output: usage.output + event.output_tokens, cached: usage.cached + event.cached_tokens },
      };
    }
    case "final": {
      const hasText = turn.blocks.some((b) => b.kind === "text");
      const blocks = !hasText && event.content ? [...turn.blocks, { kind: "text" as const, text: event.content }] : turn.blocks;
      return { ...turn, blocks, status: "done", durationMs: event.duration_ms };
    }
    case "error":
      return {
        ...turn,
        blocks: [...turn.blocks, { kind: "error", message: event.message, code: event.code }],
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

/** A stored session as turns. Each user entry starts a turn; the rest are its blocks in written order. */
export function turnsFromEntries(entries: SessionEntry[]): Turn[] {
  let turns: Turn[] = [];
  let compacted = 0;
  for (const [index, entry] of entries.entries()) {
    if (entry.type === "user") {
      turns.push({ key: `t${index}`, user: entry.content, blocks: [], status: "done" });
      continue;
    }
    const turn = turns[turns.length - 1];
    if (!turn) continue;
    switch (entry.type) {
      case "thought":
        turn.blocks.push({ kind: "thought", text: entry.content });
        break;
      case "assistant":
        turn.blocks.push({
          kind: "text",
          text: entry.content,
          ...(entry.partial ? { partial: true } : {}),
          ...(entry.interrupted ? { interrupted: true } : {}),
        });
        if (entry.duration_ms !== undefined) turn.durationMs = entry.duration_ms;
        break;
      case "tool":
        if (entry.tool) {
          turn.blocks.push({
            kind: "tool",
            id: entry.tool.id,
            name: entry.tool.name,
            input: entry.tool.input,
            output: entry.tool.output,
            ok: entry.tool.ok,
            durationMs: entry.tool.duration_ms,
            details: entry.tool.details,
            running: false,
            sub: subAgentFromDetails(entry.tool.details, `${entry.tool.id}-sub`),
          });
        }
        break;
      case "skill":
        turn.blocks.push({ kind: "skill", name: entry.content, location: entry.location ?? "" });
        break;
      case "error":
        turn.blocks.push({ kind: "error", message: entry.content, code: entry.code ?? "error" });
        turn.status = entry.code === "aborted" ? "stopped" : "error";
        break;
      case "compaction":
        turn.blocks.push({
          kind: "compaction",
          turns: entry.covers_turns ?? 0,
          summary: entry.content,
          skills: (entry.skills ?? []).map((s) => s.name),
          forced: entry.forced === true,
        });
        compacted = Math.max(compacted, entry.covers_turns ?? 0);
        break;
      case "review":
        turn.blocks.push({ kind: "review", advice: entry.advice ?? "", record: entry.content });
        break;
      case "snapshot":
        break;
      case "streaming":
        break; // the server folds checkpoints into the step's text before anything reads them
      default:
        assertNever(entry.type);
    }
  }
  if (compacted > 0) turns = markCompacted(turns, compacted);
  return turns;
}
