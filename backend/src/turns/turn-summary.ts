import type { ChatEvent } from "@mini-openclaw/protocol";

/** What the log says of a finished turn: one line with its session, outcome, tokens and duration. */
export interface TurnSummary {
  session_id: string;
  turn: number | null;
  outcome: string;
  input_tokens: number;
  output_tokens: number;
  tool_calls: number;
  duration_ms: number;
  /** A failed turn's error, as the user was told it (the endpoint and the cause; never a key). */
  error?: string;
}

/** The summary of a turn from the events it sent (the main agent's own: a sub-agent's are inside its delegate events). */
export function summarizeTurn(sessionId: string, events: ChatEvent[], durationMs: number): TurnSummary {
  const summary: TurnSummary = { session_id: sessionId, turn: null, outcome: "unfinished", input_tokens: 0, output_tokens: 0, tool_calls: 0, duration_ms: Math.round(durationMs) };
  for (const event of events) {
    if (event.type === "session") summary.turn = event.turn ?? null;
    else if (event.type === "usage") {
      summary.input_tokens += event.input_tokens;
      summary.output_tokens += event.output_tokens;
    } else if (event.type === "tool_call") summary.tool_calls++;
    else if (event.type === "final") summary.outcome = "answered";
    else if (event.type === "error") {
      summary.outcome = event.code;
      summary.error = event.message;
    }
  }
  return summary;
}
