import type { SkillInfo } from "@mini-openclaw/protocol";
import { checkNameAndDescription, readFrontmatter, stringList } from "../lib/frontmatter.js";
import { parseAllowedTools, type ToolAllowance } from "./allowed-tools.js";

/** The Agent Skills spec's limit; public skills exceed it (Anthropic's own claude-api: 1,068), so past it is a warning. */
const MAX_DESCRIPTION = 1024;

export type ParsedSkill =
  | { ok: true; skill: Omit<SkillInfo, "location" | "references">; body: string }
  | { ok: false; reason: string };

/**
 * Validates a SKILL.md: YAML frontmatter with `name` and `description` (optional `tags`, `allowed-tools`).
 * Problems that make the skill unusable are errors; smaller ones are warnings and the skill still loads.
 */
export function parseSkill(text: string, folder: string): ParsedSkill {
  const front = readFrontmatter(text, "SKILL.md", "name and description");
  if (!front.ok) return front;
  const { data } = front;
  const invalid = checkNameAndDescription(data, Number.POSITIVE_INFINITY);
  if (invalid) return { ok: false, reason: invalid };
  const name = data.name as string;
  const description = data.description as string;

  const warnings: string[] = [];
  if (description.length > MAX_DESCRIPTION) warnings.push(`'description' is ${description.length} characters, over the ${MAX_DESCRIPTION} the Agent Skills format allows`);
  if (name !== folder) warnings.push(`name "${name}" differs from its folder "${folder}"`);
  const tags = stringList(data.tags, "tags");
  if ("error" in tags) return { ok: false, reason: tags.error };

  let allowance: ToolAllowance | null = null;
  if (data["allowed-tools"] !== undefined) {
    const parsed = parseAllowedTools(data["allowed-tools"]);
    if ("error" in parsed) return { ok: false, reason: parsed.error };
    warnings.push(...parsed.warnings);
    allowance = parsed.allowance;
  }

  return {
    ok: true,
    skill: {
      name,
      description: description.trim().replace(/\s+/g, " "),
      tags: tags.values,
      allowed_tools: allowance?.tools ?? null,
      ...(allowance?.commands ? { allowed_commands: allowance.commands } : {}),
      warnings,
    },
    body: front.body,
  };
}
