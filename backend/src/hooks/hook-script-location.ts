/**
 * Whether a hook's command runs something the agent could have written: a path in its words (read
 * from the Bash syntax tree, never by splitting text) that lies, as written or through links, in a
 * data folder the sandbox mounts writable. Such a hook would be the agent's code running outside the
 * sandbox as the user, so it is refused, with the path that made it so.
 */
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { pathUnder } from "../lib/path-under.js";
import { WRITABLE_DATA_DIRS } from "../sandbox/sandbox-profile.js";
import { type BashNode, parseBash } from "../shell/bash-parser.js";

/** The variables a hook's command may use for the data root (Claude Code's name and ours). */
export const DATA_ROOT_VARIABLES = ["CLAUDE_PROJECT_DIR", "MINI_OPENCLAW_DATA_ROOT"] as const;

/** A word as the program would get it, or null when it depends on the shell (an expansion of another variable). */
function wordText(node: BashNode, dataRoot: string): string | null {
  switch (node.type) {
    case "word":
    case "number":
      return node.text;
    case "raw_string":
      return node.text.slice(1, -1);
    case "simple_expansion":
    case "expansion": {
      const name = node.namedChildren.find((c) => c?.type === "variable_name")?.text;
      return name && (DATA_ROOT_VARIABLES as readonly string[]).includes(name) && node.namedChildren.length === 1 ? dataRoot : null;
    }
    case "string":
    case "concatenation": {
      let text = "";
      for (const child of node.namedChildren) {
        if (!child) continue;
        const part = child.type === "string_content" ? child.text : wordText(child, dataRoot);
        if (part === null) return null;
        text += part;
      }
      return text;
    }
    default:
      return null;
  }
}

/** Every word of every simple command in the tree (names and arguments), as far as they can be known. */
function commandWords(root: BashNode, dataRoot: string): string[] {
  const words: string[] = [];
  const visit = (node: BashNode) => {
    if (node.type === "command") {
      for (const child of node.namedChildren) {
        if (!child) continue;
        const target = child.type === "command_name" ? child.namedChildren[0] : child;
        const text = target ? wordText(target, dataRoot) : null;
        if (text) words.push(text);
      }
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return words;
}

/** Where a path really is (links followed as far as they exist), lexically when nothing is there yet. */
function whereItIs(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Why a hook command must not run, or null: the path of its words in a folder the agent can write. */
export function writableScriptProblem(command: string, dataRoot: string): string | null {
  const root = parseBash(command);
  if (!root) return "the command is too long to check";
  const realRoot = whereItIs(dataRoot);
  const writable = WRITABLE_DATA_DIRS.flatMap((dir) => [join(dataRoot, dir), join(realRoot, dir)]);
  for (const word of commandWords(root, dataRoot)) {
    // A word is a path when it has a slash or names a file there (relative to the data root, where hooks run).
    const path = isAbsolute(word) ? resolve(word) : resolve(dataRoot, word);
    if (!word.includes("/") && !isFile(path)) continue;
    for (const candidate of [path, whereItIs(path)]) {
      const dir = writable.find((folder) => pathUnder(folder, candidate) !== null);
      if (dir) return `it runs ${word}, which lies in ${dir}, a folder the agent's tools can write: move the script out of the data folders (for example to hooks/ at the data root)`;
    }
  }
  return null;
}
