import { chmodSync, constants, copyFileSync, readFileSync } from "node:fs";
import { open, readFile, rename, rm } from "node:fs/promises";

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

/** A value as it is written on a `KEY=value` line: one line, quoted when it holds a `#` or spaces at its ends. */
function keyFileValue(value: string): string {
  if (/[\r\n\u0085\u2028\u2029]/.test(value)) throw new Error("a value in KEY.md must be one line");
  return /#|^\s|\s$|^["']/.test(value) ? `"${value}"` : value;
}

/**
 * Sets `KEY=value` lines in KEY.md (made from the template if missing): each line is changed where it
 * is, so the file keeps its comments and order; keys it lacks are added at the end. The file is
 * replaced whole (a temporary file, then a rename), readable by its owner only.
 */
export async function updateKeyFile(path: string, values: Record<string, string>): Promise<void> {
  ensureKeyFile(path);
  const text = await readFile(path, "utf8").catch((err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? "" : Promise.reject(err)));
  const pending = new Map(Object.entries(values));
  const lines = text.split("\n").map((line) => {
    const match = /^\s*([A-Z][A-Z0-9_]*)\s*=/.exec(line);
    if (!match || !pending.has(match[1])) return line;
    const value = pending.get(match[1])!;
    pending.delete(match[1]);
    return `${match[1]}=${keyFileValue(value)}`;
  });
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  for (const [key, value] of pending) lines.push(`${key}=${keyFileValue(value)}`);
  const temp = `${path}.${process.pid}.tmp`;
  const handle = await open(temp, "w", 0o600);
  try {
    await handle.writeFile(`${lines.join("\n")}\n`, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path).catch(async (err) => {
    await rm(temp, { force: true });
    throw err;
  });
}
