import { diffArrays, diffWordsWithSpace } from "diff";

/** One line of a line diff: kept, removed (only before) or added (only after). */
export interface DiffLine {
  kind: "same" | "removed" | "added";
  text: string;
}

/** Past this many lines on a side, no diff is made (the card says the file is too large to show). */
export const MAX_DIFF_LINES = 2_000;

/**
 * A line diff (jsdiff's Myers diff over the lines), removed lines before the added ones that replace
 * them. Null when either side has more than MAX_DIFF_LINES lines.
 */
export function lineDiff(before: string, after: string): DiffLine[] | null {
  const a = before === "" ? [] : before.split("\n");
  const b = after === "" ? [] : after.split("\n");
  if (a.length > MAX_DIFF_LINES || b.length > MAX_DIFF_LINES) return null;
  return diffArrays(a, b).flatMap((change) =>
    change.value.map((text): DiffLine => ({ kind: change.added ? "added" : change.removed ? "removed" : "same", text })),
  );
}

/** The changed lines with up to `context` unchanged lines around each run; `null` entries mark skipped lines. */
export function withContext(lines: DiffLine[], context = 1): Array<DiffLine | null> {
  const keep = lines.map((l) => l.kind !== "same");
  const near = lines.map((_, i) => keep.slice(Math.max(0, i - context), i + context + 1).some(Boolean));
  const out: Array<DiffLine | null> = [];
  lines.forEach((line, i) => {
    if (near[i]) out.push(line);
    else if (out.at(-1) !== null) out.push(null);
  });
  return out;
}

/** A word diff of two texts (jsdiff's), as runs: kept, only in the first, only in the second. Null past MAX_WORD_DIFF_CHARS a side. */
export function wordDiff(before: string, after: string): DiffLine[] | null {
  if (before.length > MAX_WORD_DIFF_CHARS || after.length > MAX_WORD_DIFF_CHARS) return null;
  return diffWordsWithSpace(before, after).map((change): DiffLine => ({ kind: change.added ? "added" : change.removed ? "removed" : "same", text: change.value }));
}

/** Past this many characters a side, answers are not diffed word by word. */
export const MAX_WORD_DIFF_CHARS = 50_000;
