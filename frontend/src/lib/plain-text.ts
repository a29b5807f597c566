/** Markdown as the words a person reads: `**bold**` → `bold`, `[link](url)` → `link`, code without its fences. */
import { fromMarkdown } from "mdast-util-from-markdown";
import type { Nodes } from "mdast";
import { toString } from "mdast-util-to-string";

/** The nodes whose text reads as one run (a list item or a quote holds several). */
const LEAF_BLOCKS = new Set(["paragraph", "heading", "code", "tableCell", "html"]);

function blockTexts(node: Nodes, out: string[]): string[] {
  if (LEAF_BLOCKS.has(node.type) || !("children" in node)) out.push(toString(node, { includeImageAlt: true }));
  else for (const child of node.children) blockTexts(child, out);
  return out;
}

/**
 * Parsed, not pattern-matched: a snippet may be cut anywhere, and the parser reads what is there.
 * Blocks are joined by a space so a snippet stays one line.
 */
export function markdownToPlain(markdown: string): string {
  return blockTexts(fromMarkdown(markdown), []).join(" ").replace(/\s+/g, " ").trim();
}
