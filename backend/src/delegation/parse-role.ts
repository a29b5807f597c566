import type { RoleInfo } from "@mini-openclaw/protocol";
import { checkNameAndDescription, readFrontmatter, stringList } from "../lib/frontmatter.js";
import { isToolName } from "../tool-names/core-tool-names.js";
const MAX_DESCRIPTION = 1024;

export interface Role extends RoleInfo {
  /** The role's instructions: the sub-agent's system prompt. */
  instructions: string;
}

export type ParsedRole = { ok: true; role: Role } | { ok: false; reason: string };

/**
 * Validates `agents/<name>.md`: frontmatter `name`, `description`, `tools` (core tools, and `delegate` to
 * delegate further), optional `model`; the body is the role's instructions. Checked like a SKILL.md.
 */
export function parseRole(text: string, stem: string, path: string): ParsedRole {
  const front = readFrontmatter(text, "The role file", "name, description and tools");
  if (!front.ok) return front;
  const { data, body } = front;
  const invalid = checkNameAndDescription(data, MAX_DESCRIPTION);
  if (invalid) return { ok: false, reason: invalid };
  const name = data.name as string;
  const warnings: string[] = [];
  if (name !== stem) warnings.push(`name "${name}" differs from its file name "${stem}.md"`);
  const listed = stringList(data.tools, "tools");
  if ("error" in listed) return { ok: false, reason: listed.error };
  const unknown = listed.values.filter((t) => !isToolName(t));
  if (unknown.length) warnings.push(`tools names unknown tools (ignored): ${unknown.join(", ")}`);
  if (data.model !== undefined && (typeof data.model !== "string" || data.model.trim() === "")) {
    return { ok: false, reason: "'model' must be a model name" };
  }
  const instructions = body.trim();
  if (!instructions) return { ok: false, reason: "the role has no instructions: write them below the frontmatter" };
  return {
    ok: true,
    role: {
      name,
      description: (data.description as string).trim().replace(/\s+/g, " "),
      path,
      tools: [...new Set(listed.values.filter(isToolName))],
      model: typeof data.model === "string" ? data.model.trim() : null,
      warnings,
      instructions,
    },
  };
}
