/**
 * Citations of knowledge passages in an answer (`knowledge/ferments.md (line 12)`, `knowledge/r.pdf
 * (page 3)`, or the search tool's own `knowledge/x.md (chunk 0, line 12)`) become links the Stage
 * opens in the Inspector. A page or slide travels as the line: the Inspector maps it.
 * Code (fenced or inline) and existing Markdown links are left as they are.
 */
const CITATION = /(?<!\]\()(?<![\w/[])(knowledge\/[\w.\-/]*[\w-]\.[A-Za-z0-9]+)(?:\s*\((?:chunk \d+, )?(?:line|page|slide) (\d+)\))?/g;
export const CITE_PREFIX = "#cite:";

/** `#cite:knowledge/x.md:12` → its path and line. */
export function parseCiteHref(href: string | undefined): { path: string; line: number } | null {
  if (!href?.startsWith(CITE_PREFIX)) return null;
  const match = /^(.*):(\d+)$/.exec(decodeURIComponent(href.slice(CITE_PREFIX.length)));
  return match ? { path: match[1], line: Number(match[2]) } : null;
}

function linkPlain(text: string): string {
  // Inline code spans stay as written.
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(CITATION, (whole, path: string, line?: string) => `[${whole}](${CITE_PREFIX}${encodeURIComponent(`${path}:${line ?? 1}`)})`)))
    .join("");
}

export function linkCitations(markdown: string): string {
  // Fenced blocks (``` or ~~~) are left whole.
  return markdown
    .split(/(^(?:```|~~~)[^\n]*\n[\s\S]*?^(?:```|~~~)[ \t]*$)/m)
    .map((part, i) => (i % 2 === 1 ? part : linkPlain(part)))
    .join("");
}
