import type { SessionSearchHit } from "@mini-openclaw/protocol";
import type { IndexedSession } from "./session-index.js";

const MAX_RESULTS = 50;
const SNIPPET_CHARS = 160;

/** Runs of characters of scripts written without spaces between words (Chinese, Japanese). */
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]+/gu;
/** Of a Chinese or Japanese question's character pairs, this share must be in the text (its question words, 几 or 吗, are not). */
const CJK_SHARE = 0.6;

/**
 * The words of a query, lowercased; quotes, repeated spaces and punctuation around a word (a question
 * mark) do not matter. Chinese and Japanese runs are left out here (see `cjkPairs`).
 */
export function queryWords(query: string): string[] {
  const spaced = query.toLowerCase().replace(/["“”]/g, " ").replace(CJK_RUN, " ");
  return [...new Set(spaced.split(/\s+/).map((w) => w.replace(/^\p{P}+|\p{P}+$/gu, "")).filter(Boolean))];
}

/**
 * The pairs of neighbouring characters in a query's Chinese or Japanese runs (a single character
 * alone): such text has no spaces between words, so it is matched as Lucene's CJK analyzer does,
 * by character bigrams, and a text matches when it holds most of them.
 */
export function cjkPairs(query: string): string[] {
  const out = new Set<string>();
  for (const [run] of query.matchAll(CJK_RUN)) {
    const chars = [...run];
    if (chars.length === 1) out.add(run);
    for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i] + chars[i + 1]);
  }
  return [...out];
}

/** Whether `text` (lowercased) holds every word and most of the pairs; how many pairs it holds. */
function matches(text: string, words: string[], pairs: string[]): number | null {
  if (!words.every((w) => text.includes(w))) return null;
  if (pairs.length === 0) return 0;
  const held = pairs.filter((p) => text.includes(p)).length;
  return held >= Math.ceil(pairs.length * CJK_SHARE) ? held : null;
}

/** The text around the first match of a query word in `text`, whitespace flattened, ellipses where cut. */
export function snippetFor(text: string, query: string): string {
  const lower = text.toLowerCase();
  const found = [...queryWords(query), ...cjkPairs(query)].map((w) => lower.indexOf(w)).filter((i) => i >= 0);
  const at = found.length ? Math.min(...found) : 0;
  const start = Math.max(0, at - Math.floor(SNIPPET_CHARS / 3));
  const end = Math.min(text.length, start + SNIPPET_CHARS);
  return `${start > 0 ? "…" : ""}${text.slice(start, end).replace(/\s+/g, " ").trim()}${end < text.length ? "…" : ""}`;
}

/**
 * Sessions whose title or turns hold every word of the query (and, for Chinese or Japanese, most of
 * its character pairs), newest first, those holding more of the pairs before: the hit names the
 * first turn holding all of it (0 when only the title does). Snippets are made by the caller from the
 * original text (`snippetFor`), since the index keeps only lowercased text.
 */
export function searchSessions(sessions: IndexedSession[], query: string): Array<Omit<SessionSearchHit, "snippet">> {
  const words = queryWords(query);
  const pairs = cjkPairs(query);
  if (words.length === 0 && pairs.length === 0) return [];
  const hits: Array<Omit<SessionSearchHit, "snippet"> & { held: number }> = [];
  for (const { summary, turns, turnIds } of sessions) {
    const title = summary.title.toLowerCase();
    const whole = `${title}\n${turns.join("\n")}`;
    const held = matches(whole, words, pairs);
    if (held === null) continue;
    const turn = turns.findIndex((t) => matches(t, words, pairs) !== null);
    const anyTurn = turn >= 0 ? turn : turns.findIndex((t) => t.includes(words[0] ?? pairs[0]));
    hits.push({ id: summary.id, title: summary.title, updated_at: summary.updated_at, turn: anyTurn >= 0 ? turnIds[anyTurn] : 0, held });
  }
  hits.sort((a, b) => b.held - a.held || (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0));
  return hits.slice(0, MAX_RESULTS).map(({ held: _held, ...hit }) => hit);
}
