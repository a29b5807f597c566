/**
 * A JSON object a helper model was asked to answer with, read from its answer as models write it:
 * the whole answer, inside a code fence, or between the first `{` and the last `}` after some prose.
 * The first reading that parses and that `accept` takes wins; null when none does.
 */
export function jsonInAnswer<T>(answer: string, accept: (value: unknown) => T | null): T | null {
  const text = answer.trim();
  const candidates = [text, /```(?:json)?\s*\n([\s\S]*?)\n```/.exec(text)?.[1], text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      const value = accept(JSON.parse(candidate));
      if (value !== null) return value;
    } catch {
      // try the next reading
    }
  }
  return null;
}
