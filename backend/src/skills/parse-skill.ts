import type { SkillInfo } from "@mini-openclaw/protocol";
import { checkNameAndDescription, readFrontmatter, stringList } from "../lib/frontmatter.js";
import { isToolName } from "../tools/core-tool-names.js";

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
  const invalid = checkNameAndDescription(data, MAX_DESCRIPTION);
  if (invalid) return { ok: false, reason: invalid };
  const name = data.name as string;
  const description = data.description as string;

  const warnings: string[] = [];
  if (name !== folder) warnings.push(`name "${name}" differs from its folder "${folder}"`);
  const tags = stringList(data.tags, "tags");
  if ("error" in tags) return { ok: false, reason: tags.error };

  let allowedTools: string[] | null = null;
  if (data["allowed-tools"] !== undefined) {
    const tools = stringList(data["allowed-tools"], "allowed-tools");
    if ("error" in tools) return { ok: false, reason: tools.error };
    const unknown = tools.values.filter((t) => !isToolName(t));
    if (unknown.length) warnings.push(`allowed-tools names unknown tools (ignored): ${unknown.join(", ")}`);
    allowedTools = tools.values.filter(isToolName);
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
    body: front.body,
  };
}
