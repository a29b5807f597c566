import type { SkillInfo, SkillProblem, SkillsReply } from "@mini-openclaw/protocol";

/** What a scan finds; `/api/skills` adds how the prompt's list holds them. */
export type SkillScan = Omit<SkillsReply, "list">;
import { SKILLS_DIR } from "../config/data-root-layout.js";
import { isUnreadable, readConfinedText } from "../paths/read-confined-file.js";
import { readConfinedDir, walkConfinedDir } from "../paths/walk-confined-dir.js";
import { parseSkill } from "./parse-skill.js";

export const MAX_SKILL_BYTES = 256 * 1024;
const MAX_REFERENCES = 50;
/**
 * Skill folders read per scan (in name order); the rest are reported, not read. The agent can write
 * skills/: 10,000 planted folders must not cost every new session seconds. (The prompt's list has its
 * own, smaller budget.)
 */
export const MAX_SCANNED_SKILLS = 600;
/** Parsed between two yields to the event loop: frontmatter parsing is synchronous. */
const PARSE_BATCH = 20;

/** Files beside SKILL.md (references/, templates...), as data-root-relative paths. */
async function listReferences(dataRoot: string, folder: string): Promise<string[]> {
  const dir = `${SKILLS_DIR}/${folder}`;
  const { files } = await walkConfinedDir(dataRoot, dir, { maxDepth: 2, maxFiles: MAX_REFERENCES + 1 });
  return files
    .map((f) => f.path)
    .filter((path) => path !== `${dir}/SKILL.md`)
    .slice(0, MAX_REFERENCES);
}

export function skillLocation(locationPrefix: string, folder: string): string {
  return `${locationPrefix}/${SKILLS_DIR}/${folder}/SKILL.md`;
}

/** The folder of a skill from its location (`…/skills/<folder>/SKILL.md`). */
export function skillFolder(location: string): string {
  return location.split("/").slice(-2, -1)[0];
}

/** SKILL.md by the data root's rules: a link, a FIFO or an oversized file is a problem with its reason. */
async function readSkillFile(dataRoot: string, folder: string): Promise<{ text: string } | { problem: string }> {
  try {
    return { text: (await readConfinedText(dataRoot, `${SKILLS_DIR}/${folder}/SKILL.md`, MAX_SKILL_BYTES)).content };
  } catch (err) {
    if (!isUnreadable(err)) return { problem: `SKILL.md cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})` };
    return { problem: err.reason === "missing" ? "the folder has no SKILL.md" : err.message };
  }
}

/**
 * Reads every `skills/<folder>/SKILL.md`. One broken skill becomes a problem with a reason;
 * it never stops the scan or hides the others. Results are sorted, so the snapshot is stable.
 */
export async function scanSkills(dataRoot: string, locationPrefix: string): Promise<SkillScan> {
  const skills: SkillInfo[] = [];
  const problems: SkillProblem[] = [];
  const entries = (await readConfinedDir(dataRoot, SKILLS_DIR)) ?? [];
  const visible = entries.filter((e) => !e.name.startsWith(".")).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // A linked skill folder could bring in anything from outside: reported, never followed.
  for (const link of visible.filter((e) => e.kind === "symlink")) {
    problems.push({ folder: link.name, location: skillLocation(locationPrefix, link.name), reason: `symlink refused: ${SKILLS_DIR}/${link.name} is a symbolic link` });
  }
  const allFolders = visible.filter((e) => e.kind === "dir").map((e) => e.name);
  const folders = allFolders.slice(0, MAX_SCANNED_SKILLS);
  if (allFolders.length > folders.length) {
    const left = allFolders.length - folders.length;
    problems.push({
      folder: allFolders[folders.length],
      location: `${locationPrefix}/${SKILLS_DIR}/`,
      reason: `${left} more skill folder${left === 1 ? " was" : "s were"} not scanned (from "${allFolders[folders.length]}" on, in name order): a scan reads at most ${MAX_SCANNED_SKILLS}. Remove the folders you do not use.`,
    });
  }

  // Read every SKILL.md at once (I/O overlaps), then validate in folder order, so results are stable.
  const reads = await Promise.all(folders.map((folder) => readSkillFile(dataRoot, folder)));
  const seen = new Map<string, string>();
  for (const [i, folder] of folders.entries()) {
    if (i > 0 && i % PARSE_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
    const location = skillLocation(locationPrefix, folder);
    const read = reads[i];
    if ("problem" in read) {
      problems.push({ folder, location, reason: read.problem });
      continue;
    }
    const parsed = parseSkill(read.text, folder);
    if (!parsed.ok) {
      problems.push({ folder, location, reason: parsed.reason });
      continue;
    }
    const other = seen.get(parsed.skill.name);
    if (other !== undefined) {
      problems.push({ folder, location, reason: `another skill (folder "${other}") already has the name "${parsed.skill.name}"` });
      continue;
    }
    seen.set(parsed.skill.name, folder);
    skills.push({ ...parsed.skill, location, references: [] });
  }
  await Promise.all(skills.map(async (skill) => (skill.references = await listReferences(dataRoot, skillFolder(skill.location)))));
  skills.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills, problems };
}
