/**
 * Mind maps in answers: a fenced block whose language is `mindmap`, holding JSON
 * `{ "title": string, "children": [ { "title": ..., "children": [...] }, ... ] }`.
 * Parsed and checked here; the Stage draws what passes and shows why the rest did not.
 */

export interface MindMapNode {
  title: string;
  children: MindMapNode[];
}

export type MindMapParse = { ok: true; map: MindMapNode } | { ok: false; error: string };

export const MIND_MAP_LIMITS = { depth: 8, nodes: 500, titleChars: 300 };

function check(value: unknown, path: string, depth: number, count: { nodes: number }): MindMapNode | string {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return `${path} must be an object with a "title"`;
  const { title, children } = value as { title?: unknown; children?: unknown };
  if (typeof title !== "string" || title.trim() === "") return `${path}.title must be a non-empty string`;
  if (title.length > MIND_MAP_LIMITS.titleChars) return `${path}.title is longer than ${MIND_MAP_LIMITS.titleChars} characters`;
  if (++count.nodes > MIND_MAP_LIMITS.nodes) return `the map has more than ${MIND_MAP_LIMITS.nodes} nodes`;
  if (children === undefined) return { title: title.trim(), children: [] };
  if (!Array.isArray(children)) return `${path}.children must be an array`;
  if (children.length > 0 && depth >= MIND_MAP_LIMITS.depth) return `the map is deeper than ${MIND_MAP_LIMITS.depth} levels`;
  const nodes: MindMapNode[] = [];
  for (const [index, child] of children.entries()) {
    const node = check(child, `${path}.children[${index}]`, depth + 1, count);
    if (typeof node === "string") return node;
    nodes.push(node);
  }
  return { title: title.trim(), children: nodes };
}

export function parseMindMap(source: string): MindMapParse {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (err) {
    return { ok: false, error: `not valid JSON (${(err as Error).message})` };
  }
  const node = check(value, "map", 1, { nodes: 0 });
  return typeof node === "string" ? { ok: false, error: node } : { ok: true, map: node };
}

export type AnswerPart = { kind: "markdown"; text: string } | { kind: "mindmap"; source: string };

const FENCE = /^```mindmap[ \t]*\n([\s\S]*?)\n```[ \t]*$/gm;

/** Splits an answer into Markdown and closed `mindmap` blocks (one still streaming stays Markdown). */
export function splitAnswer(text: string): AnswerPart[] {
  const parts: AnswerPart[] = [];
  let last = 0;
  for (const match of text.matchAll(FENCE)) {
    if (match.index > last) parts.push({ kind: "markdown", text: text.slice(last, match.index) });
    parts.push({ kind: "mindmap", source: match[1] });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ kind: "markdown", text: text.slice(last) });
  return parts.filter((p) => p.kind === "mindmap" || p.text.trim() !== "");
}
