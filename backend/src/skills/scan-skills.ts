import { readdir, readFile, stat } from "node:fs/promises";
import { relative } from "node:path";
import { join } from "node:path";
import type { SkillInfo, SkillProblem, SkillsReply } from "@mini-openclaw/protocol";
import { SKILLS_DIR } from "../workspace/workspace-files.js";
import { parseSkill } from "./parse-skill.js";

const MAX_SKILL_BYTES = 256 * 1024;
const MAX_REFERENCES = 50;

/** Files beside SKILL.md (references/, templates...), as data-root-relative paths. */
async function listReferences(dataRoot: string, folder: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, depth: number) => {
    if (depth > 2 || found.length >= MAX_REFERENCES) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith(".") || found.length >= MAX_REFERENCES) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, depth + 1);
      else if (entry.isFile() && !(depth === 0 && entry.name === "SKILL.md")) found.push(relative(dataRoot, full).split("\\").join("/"));
    }
  };
  await walk(join(dataRoot, SKILLS_DIR, folder), 0);
  return found;
}

export function skillLocation(locationPrefix: string, folder: string): string {
  return `${locationPrefix}/${SKILLS_DIR}/${folder}/SKILL.md`;
}

async function readSkillFile(file: string): Promise<{ text: string } | { problem: string }> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return { problem: "SKILL.md is not a regular file" };
    if (info.size > MAX_SKILL_BYTES) return { problem: `SKILL.md is ${info.size} bytes, over the ${MAX_SKILL_BYTES}-byte limit` };
    return { text: await readFile(file, "utf8") };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { problem: code === "ENOENT" ? "the folder has no SKILL.md" : `SKILL.md cannot be read (${code ?? "error"})` };
  }
}

/**
 * Reads every `skills/<folder>/SKILL.md`. One broken skill becomes a problem with a reason;
 * it never stops the scan or hides the others. Results are sorted, so the snapshot is stable.
 */
export async function scanSkills(dataRoot: string, locationPrefix: string): Promise<SkillsReply> {
  const skills: SkillInfo[] = [];
  const problems: SkillProblem[] = [];
  let folders: string[];
  try {
    folders = (await readdir(join(dataRoot, SKILLS_DIR), { withFileTypes: true }))
      .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith("."))
      .map((e) => e.name)
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { skills, problems };
    throw err;
  }

  // Read every SKILL.md at once (I/O overlaps), then validate in folder order, so results are stable.
  const reads = await Promise.all(folders.map((folder) => readSkillFile(join(dataRoot, SKILLS_DIR, folder, "SKILL.md"))));
  const seen = new Map<string, string>();
  folders.forEach((folder, i) => {
    const location = skillLocation(locationPrefix, folder);
    const read = reads[i];
    if ("problem" in read) {
      problems.push({ folder, location, reason: read.problem });
      return;
    }
    const parsed = parseSkill(read.text, folder);
    if (!parsed.ok) {
      problems.push({ folder, location, reason: parsed.reason });
      return;
    }
    const other = seen.get(parsed.skill.name);
    if (other !== undefined) {
      problems.push({ folder, location, reason: `another skill (folder "${other}") already has the name "${parsed.skill.name}"` });
      return;
    }
    seen.set(parsed.skill.name, folder);
    skills.push({ ...parsed.skill, location, references: [] });
  });
  await Promise.all(skills.map(async (skill) => (skill.references = await listReferences(dataRoot, skill.location.split("/").slice(-2, -1)[0]))));
  skills.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills, problems };
}
