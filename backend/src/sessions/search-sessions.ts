import type { SessionSearchHit } from "@mini-openclaw/protocol";
import type { IndexedSession } from "./session-index.js";

const MAX_RESULTS = 50;
const SNIPPET_CHARS = 160;

/** The words of a query, lowercased; quotes and repeated spaces do not matter. */
export function queryWords(query: string): string[] {
  return [...new Set(query.toLowerCase().replace(/["“”]/g, " ").split(/\s+/).filter(Boolean))];
}

/** The text around the first match of a query word in `text`, whitespace flattened, ellipses where cut. */
export function snippetFor(text: string, query: string): string {
  const lower = text.toLowerCase();
  const found = queryWords(query).map((w) => lower.indexOf(w)).filter((i) => i >= 0);
  const at = found.length ? Math.min(...found) : 0;
  const start = Math.max(0, at - Math.floor(SNIPPET_CHARS / 3));
  const end = Math.min(text.length, start + SNIPPET_CHARS);
  return `${start > 0 ? "…" : ""}${text.slice(start, end).replace(/\s+/g, " ").trim()}${end < text.length ? "…" : ""}`;
}

/**
 * Sessions whose title or turns hold every word of the query, newest first: the hit names the first
 * turn holding all of them (0 when only the title does). Snippets are made by the caller from the
 * original text (`snippetFor`), since the index keeps only lowercased text.
 */
export function searchSessions(sessions: IndexedSession[], query: string): Array<Omit<SessionSearchHit, "snippet">> {
  const words = queryWords(query);
  if (words.length === 0) return [];
  const hits: Array<Omit<SessionSearchHit, "snippet">> = [];
  for (const { summary, turns, turnIds } of sessions) {
    const title = summary.title.toLowerCase();
    const inSession = words.every((w) => title.includes(w) || turns.some((t) => t.includes(w)));
    if (!inSession) continue;
    const turn = turns.findIndex((t) => words.every((w) => t.includes(w)));
    const anyTurn = turn >= 0 ? turn : turns.findIndex((t) => t.includes(words[0]));
    hits.push({ id: summary.id, title: summary.title, updated_at: summary.updated_at, turn: anyTurn >= 0 ? turnIds[anyTurn] : 0 });
  }
  hits.sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0));
  return hits.slice(0, MAX_RESULTS);
}
