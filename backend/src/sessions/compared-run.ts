/**
 * One run of a turn as the compare view shows it, derived from its session's entries: the message and
 * answer, the thoughts, the tool calls (whether each was answered from the record), tokens, cost, the
 * profile and model, and its times from the entries' timestamps.
 */
import type { ComparedRun, ReplayOf, SessionEntry } from "@mini-openclaw/protocol";
import { canonicalJson } from "../lib/canonical-json.js";

export function comparedRun(sessionId: string, turn: number, entries: SessionEntry[], replayOf?: ReplayOf): ComparedRun | null {
  const user = entries.find((e) => e.type === "user" && e.turn === turn);
  if (!user || user.type !== "user") return null;
  const run: ComparedRun = {
    session_id: sessionId,
    turn,
    ...(replayOf ? { replay_of: replayOf } : {}),
    message: user.content,
    answer: "",
    thoughts: "",
    profile: null,
    model: null,
    tool_calls: [],
    input_tokens: 0,
    output_tokens: 0,
    cost: null,
    first_token_ms: null,
    total_ms: null,
    error: null,
  };
  const start = Date.parse(user.ts);
  const calls = new Map<string, ComparedRun["tool_calls"][number]>();
  let last = start;
  for (const entry of entries) {
    if (entry.type !== "event" || entry.turn !== turn) continue;
    const event = entry.event;
    const at = Date.parse(entry.ts);
    if (Number.isFinite(at)) last = Math.max(last, at);
    switch (event.type) {
      case "step_start":
        run.model ??= event.model;
        run.profile ??= event.profile ?? null;
        break;
      case "thought":
        run.thoughts += event.content;
        break;
      case "token":
        if (run.first_token_ms === null && Number.isFinite(at)) run.first_token_ms = Math.max(0, at - start);
        break;
      case "tool_call": {
        const call = { name: event.name, input: event.input, ok: null, output_chars: 0, replayed: false };
        calls.set(event.id, call);
        run.tool_calls.push(call);
        break;
      }
      case "tool_result": {
        const call = calls.get(event.id);
        if (call) Object.assign(call, { ok: event.ok, output_chars: event.output.length, replayed: event.details?.replayed === true });
        break;
      }
      case "usage":
        run.input_tokens += event.input_tokens;
        run.output_tokens += event.output_tokens;
        if (event.cost !== undefined) run.cost = Math.round(((run.cost ?? 0) + event.cost) * 1e6) / 1e6;
        break;
      case "final":
        run.answer = event.content;
        break;
      case "error":
        run.error = event.message;
        break;
      default:
        break;
    }
  }
  run.total_ms = Number.isFinite(start) ? last - start : null;
  return run;
}

/** Each later run's tool calls against the first's, by position: same tool and input, other input, one more, one fewer. */
export function toolCallDifferences(first: ComparedRun, other: ComparedRun): Array<{ name: string; status: "same" | "different" | "extra" | "missing" }> {
  const n = Math.max(first.tool_calls.length, other.tool_calls.length);
  return Array.from({ length: n }, (_, i) => {
    const a = first.tool_calls[i];
    const b = other.tool_calls[i];
    if (!b) return { name: a.name, status: "missing" as const };
    if (!a) return { name: b.name, status: "extra" as const };
    return { name: b.name, status: a.name === b.name && canonicalJson(a.input) === canonicalJson(b.input) ? ("same" as const) : ("different" as const) };
  });
}
