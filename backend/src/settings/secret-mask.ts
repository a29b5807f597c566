/**
 * Credentials in a settings file, masked wherever the file leaves the server, and put back when the
 * Inspector saves it with the masks untouched. The text is edited in place through a JSON parser's
 * node offsets (jsonc-parser, VS Code's own), so the user's formatting survives both ways.
 */
import { type Node, parseTree } from "jsonc-parser";
import type { JsonPathPattern, SettingsFile } from "./settings-files.js";

export const MASK = "••••••••";
/** Words before a credential that say how it is used, not what it is (`Bearer <token>`). */
const SCHEMES = new Set(["bearer", "basic", "token", "bot", "apikey", "digest"]);
/** A `${VAR}` (or `${VAR:-default}`) reference: a name, not a value. */
const REFERENCE = /^(\$\{[^}]*\})+$/;

/** One word of a value, masked unless it is a scheme or a `${VAR}` reference. */
const maskWord = (word: string) => (word === "" || SCHEMES.has(word.toLowerCase()) || REFERENCE.test(word) ? word : MASK);

/** A URL keeps its scheme, host and path; its password and query values are masked. */
function maskUrl(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (!url.password && !url.search) return value;
  if (url.password) url.password = MASK;
  const query = [...url.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=${MASK}`).join("&");
  url.search = "";
  return `${url.toString()}${query ? `?${query}` : ""}`;
}

/** What a credential shows as: each word masked but for auth schemes and `${VAR}` references. */
export function maskValue(value: string, key: string): string {
  if (key === "url") return maskUrl(value) ?? value.split(/(\s+)/).map(maskWord).join("");
  return value.split(/(\s+)/).map((part) => (/^\s+$/.test(part) ? part : maskWord(part))).join("");
}

function matches(path: readonly (string | number)[], pattern: JsonPathPattern): boolean {
  return path.length === pattern.length && pattern.every((part, i) => part === "*" || part === String(path[i]));
}

/** Every string node of the tree at a credential path, with its path. */
function secretNodes(root: Node | undefined, file: SettingsFile): Array<{ node: Node; path: string[] }> {
  const out: Array<{ node: Node; path: string[] }> = [];
  const walk = (node: Node, path: string[]) => {
    if (node.type === "object") {
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key && value) walk(value, [...path, String(key.value)]);
      }
    } else if (node.type === "array") {
      (node.children ?? []).forEach((child, i) => walk(child, [...path, String(i)]));
    } else if (node.type === "string" && file.secrets.some((pattern) => matches(path, pattern))) {
      out.push({ node, path });
    }
  };
  if (root) walk(root, []);
  return out;
}

function replaceAll(text: string, edits: Array<{ offset: number; length: number; content: string }>): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.offset - a.offset)) out = out.slice(0, edit.offset) + edit.content + out.slice(edit.offset + edit.length);
  return out;
}

/** The file as the user may see it: every credential masked. Text that is not JSON is masked whole. */
export function maskSecrets(file: SettingsFile, text: string): string {
  if (file.secrets.length === 0) return text;
  const root = parseTree(text);
  // Broken JSON cannot be read by path: nothing of it is shown but that it exists.
  if (!root) return text.trim() === "" ? text : `// ${file.path} is not valid JSON; it is not shown here because it may hold credentials.\n`;
  const edits = secretNodes(root, file).flatMap(({ node, path }) => {
    const masked = maskValue(String(node.value), path[path.length - 1]);
    return masked === node.value ? [] : [{ offset: node.offset, length: node.length, content: JSON.stringify(masked) }];
  });
  return replaceAll(text, edits);
}

/**
 * A save of the masked view: each credential sent back exactly as it was shown (masked) is put back
 * from the file as it is on disk, byte for byte; one the user typed anew is saved as typed.
 */
export function restoreSecrets(file: SettingsFile, submitted: string, current: string | null): string {
  if (file.secrets.length === 0 || current === null) return submitted;
  // The view saved as it was shown (a file that is not JSON is shown as a note): nothing changes.
  if (submitted === maskSecrets(file, current)) return current;
  const before = new Map(secretNodes(parseTree(current), file).map(({ node, path }) => [path.join("\u0000"), node]));
  const edits = secretNodes(parseTree(submitted), file).flatMap(({ node, path }) => {
    const original = before.get(path.join("\u0000"));
    if (!original || node.value === original.value) return [];
    const shown = maskValue(String(original.value), path[path.length - 1]);
    return node.value === shown ? [{ offset: node.offset, length: node.length, content: current.slice(original.offset, original.offset + original.length) }] : [];
  });
  return replaceAll(submitted, edits);
}
