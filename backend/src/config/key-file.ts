import { chmodSync, constants, copyFileSync, readFileSync } from "node:fs";

/**
 * Reads `KEY=value` lines from KEY.md. Everything else in the file (Markdown, comments after `#`,
 * blank lines) is ignored, so the file can explain itself to the person filling it in.
 */
export function parseKeyFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const match = /^\s*([A-Z][A-Z0-9_]*)\s*=(.*)$/.exec(rawLine);
    if (!match) continue;
    let value = match[2].trim();
    const quoted = /^(["'])(.*)\1$/.exec(value);
    if (quoted) value = quoted[2];
    else value = value.replace(/\s+#.*$/, "").trim();
    values[match[1]] = value;
  }
  return values;
}

/** A missing KEY.md is not an error: the workbench starts and says what to configure. */
export function readKeyFile(path: string): Record<string, string> {
  try {
    return parseKeyFile(readFileSync(path, "utf8"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw err;
  }
}

/**
 * Makes KEY.md from the tracked template beside it (`KEY.example.md`) when there is none, readable by
 * its owner only. KEY.md itself is git-ignored: a key typed into it is never part of a commit.
 * Returns whether it was made.
 */
export function ensureKeyFile(path: string, template = path.replace(/KEY\.md$/, "KEY.example.md")): boolean {
  try {
    copyFileSync(template, path, constants.COPYFILE_EXCL);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || code === "ENOENT") return false;
    throw err;
  }
  chmodSync(path, 0o600);
  return true;
}
