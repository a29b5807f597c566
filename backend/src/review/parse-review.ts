import { jsonInAnswer } from "../lib/json-in-answer.js";

/** What the reviewer answers: advice for the main agent's next turn, and a record for the user. */
export interface ReviewResult {
  advice: string;
  record: string;
}

function asReview(value: unknown): ReviewResult | null {
  if (value === null || typeof value !== "object") return null;
  const { advice, record } = value as { advice?: unknown; record?: unknown };
  if (typeof advice !== "string" || typeof record !== "string") return null;
  return { advice: advice.trim(), record: record.trim() };
}

/**
 * Reads `{ "advice": "...", "record": "..." }` from the reviewer's answer, also inside a code fence or
 * after some prose. An answer of another shape is kept whole as the record, with no advice.
 */
export function parseReview(answer: string): ReviewResult {
  return jsonInAnswer(answer, asReview) ?? { advice: "", record: `The reviewer did not answer with {"advice", "record"} JSON; its answer:\n\n${answer.trim().slice(0, 4000)}` };
}
