import type { StoredEvent } from "@mini-openclaw/protocol";

/**
 * Two events that streamed back to back, as one, when they are pieces of the same block: two `token`,
 * `thought` or `tool_input_delta` events of one block, or a sub-agent's two such pieces under the same
 * delegate call (at any depth). Null when they are not. A session stores text joined this way, at most
 * a second's worth per line: the chunking of a stream is the provider's, not part of the turn.
 */
export function joinTextEvents(a: StoredEvent, b: StoredEvent): StoredEvent | null {
  if ((a.type === "token" && b.type === "token") || (a.type === "thought" && b.type === "thought") || (a.type === "tool_input_delta" && b.type === "tool_input_delta")) {
    if (a.block !== b.block) return null;
    return { ...a, content: a.content + b.content } as StoredEvent;
  }
  if (a.type === "delegate" && b.type === "delegate" && a.call_id === b.call_id && a.agent === b.agent && a.depth === b.depth) {
    if (a.event.type === "session" || b.event.type === "session") return null;
    const inner = joinTextEvents(a.event, b.event);
    return inner ? { ...a, event: inner } : null;
  }
  return null;
}

/** Whether an event is a piece of streamed text (worth holding back for the next piece). */
export function isTextPiece(event: StoredEvent): boolean {
  if (event.type === "token" || event.type === "thought" || event.type === "tool_input_delta") return true;
  return event.type === "delegate" && event.event.type !== "session" && isTextPiece(event.event);
}

/** A stream of events with adjacent text pieces joined: what a session stores of it. */
export function joinTextRuns(events: StoredEvent[]): StoredEvent[] {
  const out: StoredEvent[] = [];
  for (const event of events) {
    const joined = out.length > 0 ? joinTextEvents(out[out.length - 1], event) : null;
    if (joined) out[out.length - 1] = joined;
    else out.push(event);
  }
  return out;
}
