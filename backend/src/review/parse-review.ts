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
  const text = answer.trim();
  const candidates = [text, /```(?:json)?\s*\n([\s\S]*?)\n```/.exec(text)?.[1], text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      const review = asReview(JSON.parse(candidate));
      if (review) return review;
    } catch {
      // try the next reading
    }
  }
  return { advice: "", record: `The reviewer did not answer with {"advice", "record"} JSON; its answer:\n\n${text.slice(0, 4000)}` };
}
