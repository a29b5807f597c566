/**
 * Session files written before format version 2 (every file before 2026-11-23): one line per model
 * step's text, thought, tool (call and result together, written when the result came), skill, error,
 * plus `streaming` checkpoints. `migrateV1` turns them into version-2 entries, so an old session
 * opens, replays and takes new turns; the old lines stay in the file untouched.
 *
 * `streaming` entries were the durable trail of a step while it streamed: the recorder appended the
 * text (and thought) that arrived since its last checkpoint, at most once a second. When the step
 * moved on, its whole `assistant` (or `thought`) entry was written with the same step number and the
 * checkpoints were spent. What is left unspent is what a crash cut short (`foldStreamingEntries`).
 */
import type { ChatEvent, SessionEntry, StoredEvent } from "@mini-openclaw/protocol";
import { z } from "zod";

export interface V1ToolRecord {
  id: string;
  name: string;
  input: unknown;
  output: string;
  ok: boolean;
  duration_ms: number;
  details?: Record<string, unknown>;
}

/** One line of a version-1 session file. */
export interface V1Entry {
  type: "user" | "assistant" | "thought" | "tool" | "skill" | "error" | "snapshot" | "compaction" | "review" | "streaming";
  ts: string;
  content: string;
  tool?: V1ToolRecord;
  step?: number;
  duration_ms?: number;
  partial?: boolean;
  interrupted?: boolean;
  channel?: "text" | "thought";
  location?: string;
  code?: string;
  model_content?: string;
  covers_turns?: number;
  skills?: Array<{ name: string; location: string; content: string }>;
  forced?: boolean;
  roles?: string;
  advice?: string;
}

export const v1EntrySchema = z.looseObject({
  type: z.enum(["user", "assistant", "thought", "tool", "skill", "error", "snapshot", "compaction", "review", "streaming"]),
  ts: z.string(),
  content: z.string(),
  tool: z
    .looseObject({ id: z.string(), name: z.string(), input: z.unknown(), output: z.string(), ok: z.boolean(), duration_ms: z.number() })
    .optional(),
});

const spentBy = (channel: "text" | "thought") => (channel === "text" ? "assistant" : "thought");

export function foldStreamingEntries(entries: V1Entry[]): V1Entry[] {
  if (!entries.some((e) => e.type === "streaming")) return entries;
  const out: V1Entry[] = [];
  // Checkpoints not yet spent, by "channel/step", in the order they first appeared.
  let open = new Map<string, { at: number; entry: V1Entry }>();
  const spend = (channel: "text" | "thought", step: number | undefined) => open.delete(`${channel}/${step}`);
  for (const entry of entries) {
    if (entry.type === "user") {
      // A new turn: whatever the last one left open was cut short (the recorder always ends a step).
      open = closeOpen(out, open);
    }
    if (entry.type === "streaming") {
      const channel = entry.channel ?? "text";
      const key = `${channel}/${entry.step}`;
      const held = open.get(key);
      if (held) held.entry = { ...held.entry, content: held.entry.content + entry.content };
      else {
        open.set(key, { at: out.length, entry: { ...entry } });
        out.push(entry); // a placeholder, replaced or removed by closeOpen
      }
      continue;
    }
    if (entry.type === "assistant") spend("text", entry.step);
    if (entry.type === "thought") spend("thought", entry.step);
    out.push(entry);
  }
  closeOpen(out, open);
  return out.filter((e) => e.type !== "streaming");
}

/** Turns each open checkpoint group into its step's entry, marked interrupted, where it began. */
function closeOpen(out: V1Entry[], open: Map<string, { at: number; entry: V1Entry }>): Map<string, { at: number; entry: V1Entry }> {
  for (const { at, entry } of open.values()) {
    const channel = entry.channel ?? "text";
    out[at] = {
      type: spentBy(channel),
      ts: entry.ts,
      content: entry.content,
      ...(entry.step !== undefined ? { step: entry.step } : {}),
      ...(channel === "text" ? { partial: true } : {}),
      interrupted: true,
    };
  }
  return new Map();
}

const event = (ts: string, e: StoredEvent): SessionEntry => ({ type: "event", ts, event: e });

/**
 * A delegate call's version-1 trace (kept whole in its result's details) as the `delegate` events
 * that streamed; a nested delegation's trace sits in the nested call's result and nests the same way.
 */
function traceEvents(callId: string, agent: string, depth: number, trace: ChatEvent[]): ChatEvent[] {
  const out: ChatEvent[] = [];
  const wrap = (inner: ChatEvent): ChatEvent => ({ type: "delegate", call_id: callId, agent, depth, event: inner });
  for (const inner of trace) {
    if (inner.type === "tool_result" && inner.name === "delegate" && inner.details && Array.isArray(inner.details.trace)) {
      const { trace: nested, ...details } = inner.details;
      const nestedAgent = typeof details.agent === "string" ? details.agent : "sub-agent";
      for (const e of traceEvents(inner.id, nestedAgent, depth + 1, nested as ChatEvent[])) out.push(wrap(e));
      out.push(wrap({ ...inner, details }));
    } else out.push(wrap(inner));
  }
  return out;
}

/** Is this `assistant` entry the answer that ended its turn? Version 1 marked only newer ones (`duration_ms`). */
function endsTurn(entries: V1Entry[], index: number): boolean {
  const entry = entries[index];
  if (entry.duration_ms !== undefined) return true;
  if (entry.partial || entry.interrupted) return false;
  // Walked in place: a copy of the rest per entry made reading a long old session quadratic.
  for (let i = index + 1; i < entries.length; i++) {
    const later = entries[i];
    if (later.type === "user") return true;
    if (later.type === "tool" || later.type === "assistant" || later.type === "error") return false;
  }
  return true;
}

export function migrateV1(old: V1Entry[]): SessionEntry[] {
  const entries = foldStreamingEntries(old);
  const out: SessionEntry[] = [];
  entries.forEach((entry, index) => {
    const { ts } = entry;
    switch (entry.type) {
      case "user":
        out.push({ type: "user", ts, content: entry.content, ...(entry.model_content !== undefined ? { model_content: entry.model_content } : {}) });
        return;
      case "snapshot":
        out.push({ type: "snapshot", ts, content: entry.content, ...(entry.roles !== undefined ? { roles: entry.roles } : {}) });
        return;
      case "compaction":
        out.push({ type: "compaction", ts, content: entry.content, covers_turns: entry.covers_turns ?? 0, skills: entry.skills ?? [], forced: entry.forced === true });
        return;
      case "review":
        out.push({ type: "review", ts, content: entry.content, advice: entry.advice ?? "" });
        return;
      case "thought":
        out.push(event(ts, { type: "thought", content: entry.content }));
        return;
      case "assistant":
        if (entry.content) out.push(event(ts, { type: "token", content: entry.content }));
        if (endsTurn(entries, index)) out.push(event(ts, { type: "final", content: entry.content, duration_ms: entry.duration_ms ?? 0 }));
        return;
      case "tool": {
        const tool = entry.tool;
        if (!tool) return;
        const { trace, ...details } = tool.details ?? {};
        out.push(event(ts, { type: "tool_call", id: tool.id, name: tool.name, input: tool.input, step: entry.step ?? 1, started_at: Date.parse(ts) - tool.duration_ms }));
        if (tool.name === "delegate" && Array.isArray(trace)) {
          const agent = typeof details.agent === "string" ? details.agent : "sub-agent";
          for (const e of traceEvents(tool.id, agent, Number(details.depth ?? 1), trace as ChatEvent[])) out.push(event(ts, e as StoredEvent));
        }
        const kept = tool.details ? (tool.name === "delegate" ? details : tool.details) : undefined;
        out.push(event(ts, { type: "tool_result", id: tool.id, name: tool.name, output: tool.output, ok: tool.ok, duration_ms: tool.duration_ms, ...(kept ? { details: kept } : {}) }));
        return;
      }
      case "skill":
        out.push(event(ts, { type: "skill", name: entry.content, location: entry.location ?? "" }));
        return;
      case "error":
        out.push(event(ts, { type: "error", message: entry.content, code: (entry.code ?? "internal") as never }));
        return;
      case "streaming":
        return; // folded above
    }
  });
  return out;
}
