import matter from "gray-matter";
import { UserError } from "../lib/user-error.js";
import { readConfinedText } from "../paths/read-confined-file.js";
import type { ActiveSkill } from "./active-skill.js";
import { SKILLS_DIR } from "../config/data-root-layout.js";
import { MAX_SKILL_BYTES, scanSkills, skillFolder } from "./scan-skills.js";
import { withBaseDir } from "./skill-base-dir.js";
import { skillBlock } from "./skill-block.js";

const SLASH = /^\/([A-Za-z0-9][A-Za-z0-9_.-]*)(?:\s+([\s\S]*))?$/;

export interface LoadedSkill {
  /** null for an MCP server's prompt (`/mcp__server__prompt`): it activates no skill. */
  skill: ActiveSkill | null;
  /** What the model receives as the user's message: the skill's instructions, then the request. */
  modelMessage: string;
}

const NAMES_SHOWN = 20;

function listNames(names: string[]): string {
  if (names.length === 0) return "none";
  const more = names.length - NAMES_SHOWN;
  return names.slice(0, NAMES_SHOWN).join(", ") + (more > 0 ? ` and ${more} more (see the Skills pane)` : "");
}

/** `/name args` → the skill's name and arguments; null for an ordinary message. */
export function parseSlashCommand(message: string): { name: string; args: string } | null {
  const match = SLASH.exec(message.trim());
  return match ? { name: match[1], args: (match[2] ?? "").trim() } : null;
}

/**
 * Loads a skill for a slash command: its body (frontmatter removed) with `$ARGUMENTS` replaced by
 * what followed the command. The result enters the conversation, not the system prompt, so the
 * prompt prefix stays the same.
 */
export async function loadSlashCommand(dataRoot: string, locationPrefix: string, name: string, args: string): Promise<LoadedSkill> {
  const { skills, problems } = await scanSkills(dataRoot, locationPrefix);
  // By its name, or by its folder's (a copied skill's folder often differs from its frontmatter name).
  const skill = skills.find((s) => s.name === name) ?? skills.find((s) => skillFolder(s.location) === name);
  if (!skill) {
    const problem = problems.find((p) => p.folder === name);
    if (problem) throw new UserError("unprocessable", `The skill /${name} cannot be used: ${problem.reason}. Fix ${problem.location} and run it again.`);
    throw new UserError("not_found", `Unknown skill /${name}. Available: ${listNames(skills.map((s) => `/${s.name}`))}.`);
  }
  const folder = skillFolder(skill.location);
  const { content: text } = await readConfinedText(dataRoot, `${SKILLS_DIR}/${folder}/SKILL.md`, MAX_SKILL_BYTES);
  const body = matter(text, {}).content.trim();
  const withArgs = body.includes("$ARGUMENTS") ? body.replaceAll("$ARGUMENTS", args) : `${body}\n\nARGUMENTS: ${args}`;
  const instructions = withBaseDir(withArgs, `${SKILLS_DIR}/${folder}`);
  return {
    skill: { name: skill.name, location: skill.location, allowedTools: skill.allowed_tools, allowedCommands: skill.allowed_commands ?? null },
    modelMessage:
      `${skillBlock(skill.name, skill.location, instructions)}\n\n` +
      `The user ran /${skill.name}${args ? ` with: ${args}` : ""}. Follow the skill above.`,
  };
}
