import matter from "gray-matter";

export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export type Frontmatter = { ok: true; data: Record<string, unknown>; body: string } | { ok: false; reason: string };

/** YAML frontmatter of a Markdown file (skills and roles), with a reason a person can act on when it is broken. */
export function readFrontmatter(text: string, file: string, expected: string): Frontmatter {
  if (!/^---\r?\n/.test(text)) {
    return { ok: false, reason: `${file} has no frontmatter: it must start with a '---' line, then ${expected}` };
  }
  let parsed: matter.GrayMatterFile<string>;
  try {
    // An options object bypasses gray-matter's content cache, which would hide edits.
    parsed = matter(text, {});
  } catch (err) {
    const detail = (err as Error).message.split("\n")[0];
    return { ok: false, reason: `frontmatter is not valid YAML: ${detail}` };
  }
  const data = parsed.data as unknown;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { ok: false, reason: "frontmatter must be a YAML mapping" };
  return { ok: true, data: data as Record<string, unknown>, body: parsed.content };
}

/** A frontmatter list: YAML list of strings, or one space- or comma-separated string. */
export function stringList(value: unknown, field: string): { values: string[] } | { error: string } {
  if (value === undefined || value === null) return { values: [] };
  if (typeof value === "string") return { values: value.split(/[\s,]+/).filter(Boolean) };
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return { values: value.map((v) => v.trim()).filter(Boolean) };
  return { error: `'${field}' must be a list of strings or a space-separated string` };
}

/** `name` and `description`, both required; null when fine, else the reason. */
export function checkNameAndDescription(data: Record<string, unknown>, maxDescription: number): string | null {
  const { name, description } = data;
  if (typeof name !== "string" || name.trim() === "") return "frontmatter is missing 'name'";
  if (!NAME_PATTERN.test(name)) return `'name' must be letters, digits, '_', '-' or '.', at most 64 characters (got "${name.slice(0, 80)}")`;
  if (typeof description !== "string" || description.trim() === "") return "frontmatter is missing 'description'";
  if (description.length > maxDescription) return `'description' is ${description.length} characters, over the ${maxDescription} limit`;
  return null;
}
