/** One line of a line diff: kept, removed (only before) or added (only after). */
export interface DiffLine {
  kind: "same" | "removed" | "added";
  text: string;
}

/** Past this many lines on a side, no diff is made (the card says the file is too large to show). */
export const MAX_DIFF_LINES = 2_000;

/**
 * A line diff by longest common subsequence: small files (a MEMORY.md), where O(n·m) is nothing.
 * Null when either side has more than MAX_DIFF_LINES lines.
 */
export function lineDiff(before: string, after: string): DiffLine[] | null {
  const a = before === "" ? [] : before.split("\n");
  const b = after === "" ? [] : after.split("\n");
  if (a.length > MAX_DIFF_LINES || b.length > MAX_DIFF_LINES) return null;
  const lcs: Uint16Array[] = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ kind: "same", text: a[i++] });
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) out.push({ kind: "removed", text: a[i++] });
    else out.push({ kind: "added", text: b[j++] });
  }
  return out;
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
