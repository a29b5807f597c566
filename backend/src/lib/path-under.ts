import { isAbsolute, relative, sep } from "node:path";

/**
 * `path` relative to `root` ("" for the root itself), or null when it lies outside. Only a whole `..`
 * segment leaves: a name that merely starts with dots (`..notes`) is inside.
 */
export function pathUnder(root: string, path: string): string | null {
  const rel = relative(root, path);
  if (isAbsolute(rel) || rel === ".." || rel.startsWith(`..${sep}`)) return null;
  return rel;
}
