/**
 * What a proposal may touch: the two memory files, and a skill's `SKILL.md` under `skills/` by a
 * name the skills scanner takes. Anything else a helper proposes (a settings file, a path with `..`)
 * is refused and said, never written.
 */
import { MEMORY_PROPOSAL_FILES } from "@mini-openclaw/protocol";
import matter from "gray-matter";
import { SKILLS_DIR } from "../config/data-root-layout.js";
import { NAME_PATTERN } from "../lib/frontmatter.js";
import { relativeSegments } from "../paths/relative-path.js";

export const SKILL_FILE = "SKILL.md";

const shown = (raw: string) => JSON.stringify(raw.slice(0, 120));

/** The memory file a helper named, or why it may not be edited. */
export function memoryTarget(raw: string): { target: string } | { refused: string } {
  const read = relativeSegments(raw.trim());
  const path = "segments" in read ? read.segments.join("/") : null;
  if (path !== null && (MEMORY_PROPOSAL_FILES as readonly string[]).includes(path)) return { target: path };
  return { refused: `${shown(raw)} is not a memory file: only ${MEMORY_PROPOSAL_FILES.join(" and ")} are proposed to.` };
}

/** A skill's file by the name a helper gave it, or why that name cannot be a skill folder. */
export function skillTarget(name: string): { target: string } | { refused: string } {
  if (!NAME_PATTERN.test(name)) return { refused: `The skill name ${shown(name)} is not a folder under ${SKILLS_DIR}/: letters, digits, '_', '-' or '.', at most 64 characters.` };
  return { target: `${SKILLS_DIR}/${name}/${SKILL_FILE}` };
}

/** A `SKILL.md` with the frontmatter the scanner reads (YAML written by the same library that reads it). */
export function skillFileText(name: string, description: string, body: string): string {
  return matter.stringify(`${body.trim()}\n`, { name, description: description.trim() });
}
