/**
 * The Bash grammar (tree-sitter-bash, as WebAssembly through web-tree-sitter: no native build), loaded
 * once when this module is first imported, so parsing is synchronous from then on. Codex and Claude
 * Code decide what a shell command does the same way: by its syntax tree, never by splitting text.
 */
import { createRequire } from "node:module";
import { Language, type Node, Parser } from "web-tree-sitter";

const require = createRequire(import.meta.url);

await Parser.init();
const bash = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
const parser = new Parser();
parser.setLanguage(bash);

/** Longer commands are not parsed (and so never run unasked): no reader needs a 64 KB one-liner. */
export const MAX_PARSED_CHARS = 64 * 1024;

export type BashNode = Node;

/** The syntax tree's root, or null for a command too long to look at. */
export function parseBash(command: string): BashNode | null {
  if (command.length > MAX_PARSED_CHARS) return null;
  return parser.parse(command)?.rootNode ?? null;
}
