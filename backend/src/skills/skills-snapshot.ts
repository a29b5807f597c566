import type { SkillInfo, SkillsReply } from "@mini-openclaw/protocol";
import { escapeXml } from "../lib/xml-escape.js";
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { readConfinedTextIfPresent } from "../paths/read-confined-file.js";
import { SNAPSHOT_FILE } from "../workspace/workspace-files.js";
import { scanSkills } from "./scan-skills.js";

/** Only names, descriptions and locations: the agent reads a skill's body on demand. */
export function renderSnapshot(skills: SkillInfo[]): string {
  const lines = ["<available_skills>"];
  for (const skill of skills) {
    lines.push(
      "  <skill>",
      `    <name>${escapeXml(skill.name)}</name>`,
      `    <description>${escapeXml(skill.description)}</description>`,
      `    <location>${escapeXml(skill.location)}</location>`,
      "  </skill>",
    );
  }
  lines.push("</available_skills>", "");
  return lines.join("\n");
}

/**
 * Scans the skills and writes SKILLS_SNAPSHOT.md, at the start of every session. The file is only
 * rewritten when its content changes, so an unchanged snapshot keeps the prompt byte-identical.
 */
export async function refreshSkillsSnapshot(dataRoot: string, locationPrefix: string): Promise<SkillsReply> {
  const scan = await scanSkills(dataRoot, locationPrefix);
  const next = renderSnapshot(scan.skills);
  // Anything unreadable there (a planted link) is simply replaced by the rename.
  const current = await readConfinedTextIfPresent(dataRoot, SNAPSHOT_FILE, 4 * 1024 * 1024).catch(() => null);
  if (current !== next) await writeConfinedAtomic(dataRoot, SNAPSHOT_FILE, next);
  return scan;
}
