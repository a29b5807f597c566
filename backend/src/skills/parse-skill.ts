import matter from "gray-matter";
import type { SkillInfo } from "@mini-openclaw/protocol";
import { isCoreToolName } from "../tools/core-tool-names.js";

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const MAX_DESCRIPTION = 1024;

export type ParsedSkill =
  | { ok: true; skill: Omit<SkillInfo, "location" | "references">; body: string }
  | { ok: false; reason: string };

function stringList(value: unknown, field: string): { values: string[] } | { error: string } {
  if (value === undefined || value === null) return { values: [] };
  if (typeof value === "string") return { values: value.split(/[\s,]+/).filter(Boolean) };
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return { values: value.map((v) => v.trim()).filter(Boolean) };
  return { error: `'${field}' must be a list of strings or a space-separated string` };
}

/**
 * Validates a SKILL.md: YAML frontmatter with `name` and `description` (optional `tags`, `allowed-tools`).
 * Problems that make the skill unusable are errors; smaller ones are warnings and the skill still loads.
 */
export function parseSkill(text: string, folder: string): ParsedSkill {
  if (!/^---\r?\n/.test(text)) {
    return { ok: false, reason: "SKILL.md has no frontmatter: it must start with a '---' line, then name and description" };
  }
  let parsed: matter.GrayMatterFile<string>;
  try {
    // An options object bypasses gray-matter's content cache, which would hide edits.
    parsed = matter(text, {});
  } catch (err) {
    const detail = (err as Error).message.split("\n")[0];
    return { ok: false, reason: `frontmatter is not valid YAML: ${detail}` };
  }
  const data = parsed.data as Record<string, unknown>;
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return { ok: false, reason: "frontmatter must be a YAML mapping" };
  }
  const { name, description } = data;
  if (typeof name !== "string" || name.trim() === "") return { ok: false, reason: "frontmatter is missing 'name'" };
  if (!NAME_PATTERN.test(name)) {
    return { ok: false, reason: `'name' must be letters, digits, '_', '-' or '.', at most 64 characters (got "${name.slice(0, 80)}")` };
  }
  if (typeof description !== "string" || description.trim() === "") {
    return { ok: false, reason: "frontmatter is missing 'description'" };
  }
  if (description.length > MAX_DESCRIPTION) {
    return { ok: false, reason: `'description' is ${description.length} characters, over the ${MAX_DESCRIPTION} limit` };
  }

  const warnings: string[] = [];
  if (name !== folder) warnings.push(`name "${name}" differs from its folder "${folder}"`);
  const tags = stringList(data.tags, "tags");
  if ("error" in tags) return { ok: false, reason: tags.error };

  let allowedTools: string[] | null = null;
  if (data["allowed-tools"] !== undefined) {
    const tools = stringList(data["allowed-tools"], "allowed-tools");
    if ("error" in tools) return { ok: false, reason: tools.error };
    const unknown = tools.values.filter((t) => !isCoreToolName(t));
    if (unknown.length) warnings.push(`allowed-tools names unknown tools (ignored): ${unknown.join(", ")}`);
    allowedTools = tools.values.filter(isCoreToolName);
  }

  return {
    ok: true,
    skill: {
      name,
      description: description.trim().replace(/\s+/g, " "),
      tags: tags.values,
      allowed_tools: allowedTools,
      warnings,
    },
    body: parsed.content,
  };
}
