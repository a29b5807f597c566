import { readFileSync } from "node:fs";

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
