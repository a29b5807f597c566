/**
 * A replay's tools when they are answered from the record: a call with the same tool and the same
 * input as one of the original turn's gets that call's result (nothing runs, nothing asks for
 * approval); a call the original never made is answered "not recorded", or run live when the user
 * chose so (then under approvals as always).
 */
import type { SessionEntry } from "@mini-openclaw/protocol";
import type { Approver } from "../approvals/approve-call.js";
import type { CoreTool } from "../tools/core-tool.js";
import type { KeptPrompt } from "../prompt/prompt-history.js";
import { canonicalJson } from "../lib/canonical-json.js";

export interface RecordedCall {
  name: string;
  input: unknown;
  output: string;
  ok: boolean;
}

/** What a replayed turn runs with (prepare-turn's `replay`; never taken from HTTP as such). */
export interface TurnReplay {
  tools: "recorded" | "live";
  unrecorded: "refuse" | "live";
  calls: RecordedCall[];
  /** The system prompt to send as it is (the original's), or null: assembled from today's files. */
  prompt: KeptPrompt | null;
}

const keyOf = (name: string, input: unknown) => `${name}\u0000${canonicalJson(input)}`;

/** The main agent's calls of one turn with their results, in order (a call cut before its result has none and is left out). */
export function recordedCalls(entries: SessionEntry[], turn: number): RecordedCall[] {
  const calls: Array<{ id: string; name: string; input: unknown }> = [];
  const results = new Map<string, { output: string; ok: boolean }>();
  for (const entry of entries) {
    if (entry.type !== "event" || entry.turn !== turn) continue;
    const event = entry.event;
    if (event.type === "tool_call") calls.push({ id: event.id, name: event.name, input: event.input });
    else if (event.type === "tool_result") results.set(event.id, { output: event.output, ok: event.ok });
  }
  return calls.flatMap((c) => {
    const result = results.get(c.id);
    return result ? [{ name: c.name, input: c.input, ...result }] : [];
  });
}

export const NOT_RECORDED = "Not recorded: this is a replay with recorded tool results, and the original turn made no such call (same tool, same input), so it was not run.";

/** The tools and approver of a replay with recorded results. */
export function replayedToolbox(tools: CoreTool[], approve: Approver, replay: TurnReplay): { tools: CoreTool[]; approve: Approver } {
  const recorded = new Map<string, RecordedCall[]>();
  for (const call of replay.calls) recorded.set(keyOf(call.name, call.input), [...(recorded.get(keyOf(call.name, call.input)) ?? []), call]);
  // The same call made again is answered with the next recorded one, the last one again when they run out.
  const take = (name: string, input: unknown): RecordedCall | null => {
    const list = recorded.get(keyOf(name, input));
    if (!list?.length) return null;
    return list.length > 1 ? list.shift()! : list[0];
  };
  const wrapped = tools.map((tool): CoreTool => ({
    ...tool,
    async execute(input, call) {
      const hit = take(tool.name, input);
      if (hit) return { output: hit.output, ok: hit.ok, details: { replayed: true } };
      if (replay.unrecorded === "live") return tool.execute(input, call);
      return { output: NOT_RECORDED, ok: false, details: { replayed: true, not_recorded: true } };
    },
  }));
  const has = (name: string, input: unknown) => (recorded.get(keyOf(name, input))?.length ?? 0) > 0;
  // Nothing runs for a recorded call or one refused as not recorded: nothing to approve.
  const approver: Approver = (request) => (has(request.tool, request.input) || replay.unrecorded !== "live" ? Promise.resolve({ run: true }) : approve(request));
  return { tools: wrapped, approve: approver };
}
