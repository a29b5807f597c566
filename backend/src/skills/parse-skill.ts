import type { SkillInfo } from "@mini-openclaw/protocol";
import { NAME_PATTERN, readFrontmatter, stringList } from "../lib/frontmatter.js";
import { parseAllowedTools, type ToolAllowance } from "./allowed-tools.js";

/** The Agent Skills spec's limit; public skills exceed it (Anthropic's own claude-api: 1,068), so past it is a warning. */
const MAX_DESCRIPTION = 1024;

/**
 * Frontmatter fields the public skill formats define: the Agent Skills spec, Claude Code's
 * extensions, OpenClaw's, and our `tags`. Anything else loads with a warning (a typo shows up).
 */
const KNOWN_FIELDS = new Set([
  "name",
  "description",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
  "tags",
  "version",
  "argument-hint",
  "disable-model-invocation",
  "user-invocable",
  "user-invokable",
  "model",
  "effort",
  "context",
  "agent",
  "hooks",
  "homepage",
  "command-dispatch",
  "command-tool",
  "command-arg-mode",
]);

export type ParsedSkill =
  | { ok: true; skill: Omit<SkillInfo, "location" | "references">; body: string }
  | { ok: false; reason: string };

/** Claude Code's fallback for a skill without a description: its first paragraph of text. */
function firstParagraph(body: string): string {
  const paragraphs = body.split(/\n\s*\n/).map((p) => p.trim());
  return paragraphs.find((p) => p !== "" && !/^#/.test(p) && !/^```/.test(p)) ?? "";
}

/** The name a skill goes by: its frontmatter `name`, else (as Claude Code does) its folder's. */
function skillName(data: Record<string, unknown>, folder: string, warnings: string[]): string | { error: string } {
  const { name } = data;
  const folderUsable = NAME_PATTERN.test(folder);
  if (typeof name === "string" && NAME_PATTERN.test(name.trim())) {
    if (name.trim() !== folder) warnings.push(`name "${name.trim()}" differs from its folder "${folder}" (/${name.trim()} and /${folder} both load it)`);
    return name.trim();
  }
  const problem =
    typeof name === "string" && name.trim() !== ""
      ? `'name' must be letters, digits, '_', '-' or '.', at most 64 characters (got "${name.slice(0, 80)}")`
      : "frontmatter has no 'name'";
  if (!folderUsable) return { error: `${problem}, and the folder name "${folder.slice(0, 80)}" cannot stand in for it` };
  warnings.push(`${problem}: the skill goes by its folder name "${folder}"`);
  return folder;
}

/**
 * Validates a SKILL.md as leniently as the public collections need: only what makes a skill
 * unusable (no frontmatter, no usable name from it or its folder, no description and no text)
 * rejects it; everything else (a long description, a name unlike its folder, unknown fields, tags
 * or tools we cannot map) is a warning and the skill loads.
 */
export function parseSkill(text: string, folder: string): ParsedSkill {
  const front = readFrontmatter(text, "SKILL.md", "name and description");
  if (!front.ok) return front;
  const { data } = front;
  const warnings: string[] = [];

  const name = skillName(data, folder, warnings);
  if (typeof name !== "string") return { ok: false, reason: name.error };

  let description = typeof data.description === "string" ? data.description.trim() : "";
  if (description === "") {
    description = firstParagraph(front.body);
    if (description === "") return { ok: false, reason: "frontmatter is missing 'description' and the skill has no text to describe it" };
    warnings.push("frontmatter has no 'description': its first paragraph is used");
  }
  if (description.length > MAX_DESCRIPTION) warnings.push(`'description' is ${description.length} characters, over the ${MAX_DESCRIPTION} the Agent Skills format allows`);

  const unknown = Object.keys(data).filter((key) => !KNOWN_FIELDS.has(key));
  if (unknown.length) warnings.push(`unknown frontmatter ${unknown.length === 1 ? "field" : "fields"} ignored: ${unknown.join(", ")}`);

  const tags = stringList(data.tags, "tags");
  if ("error" in tags) warnings.push(`${tags.error}; tags ignored`);

  let allowance: ToolAllowance | null = null;
  if (data["allowed-tools"] !== undefined) {
    // A restriction we cannot read is not dropped silently: the skill is refused until it is fixed.
    const parsed = parseAllowedTools(data["allowed-tools"]);
    if ("error" in parsed) return { ok: false, reason: parsed.error };
    warnings.push(...parsed.warnings);
    allowance = parsed.allowance;
  }

  return {
    ok: true,
    skill: {
      name,
      description: description.replace(/\s+/g, " "),
      tags: "error" in tags ? [] : tags.values,
      allowed_tools: allowance?.tools ?? null,
      ...(allowance?.commands ? { allowed_commands: allowance.commands } : {}),
      warnings,
    },
    body: front.body,
  };
}
