import { randomBytes } from "node:crypto";
import { lstat, realpath, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { UserError } from "../lib/user-error.js";
import { isInside, writeConfinedAtomic } from "../paths/confined-path.js";
import { SKILLS_DIR } from "../workspace/workspace-files.js";
import type { ArchiveSkill } from "./read-skill-archive.js";

/** A script (`#!` first) keeps running as `./scripts/x.sh`: zips from the collections carry the bit, fflate does not report it. */
const modeFor = (data: Uint8Array) => (data[0] === 0x23 && data[1] === 0x21 ? 0o755 : 0o644);

/**
 * Writes skills into `skills/<folder>`, all or nothing: each is written whole into a hidden staging
 * folder (the scan skips dot folders), then moved into place. A folder that already exists is a 409
 * and nothing is written: replacing a skill is a deliberate step (delete the old folder first).
 */
export async function installSkills(dataRoot: string, skills: ArchiveSkill[]): Promise<string[]> {
  const rootReal = await realpath(dataRoot);
  for (const { folder } of skills) {
    if (await lstat(join(rootReal, SKILLS_DIR, folder)).catch(() => null)) {
      throw new UserError(409, `A skill folder ${SKILLS_DIR}/${folder} already exists. Nothing was installed; delete or rename that folder to replace it.`);
    }
  }
  const staging = `${SKILLS_DIR}/.installing-${randomBytes(6).toString("hex")}`;
  try {
    for (const skill of skills) {
      for (const file of skill.files) await writeConfinedAtomic(dataRoot, `${staging}/${skill.folder}/${file.path}`, file.data, { mode: modeFor(file.data) });
    }
    // The staging folder was confirmed inside the root by every write; the move stays within skills/.
    const skillsReal = await realpath(join(rootReal, SKILLS_DIR));
    if (!isInside(rootReal, skillsReal)) throw new UserError(403, `${SKILLS_DIR}/ leaves the data root; refused.`);
    for (const skill of skills) {
      try {
        await rename(join(skillsReal, staging.slice(SKILLS_DIR.length + 1), skill.folder), join(skillsReal, skill.folder));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === "ENOTEMPTY" || code === "EEXIST") throw new UserError(409, `A skill folder ${SKILLS_DIR}/${skill.folder} appeared during the install; it was left as it is.`);
        throw err;
      }
    }
  } finally {
    await rm(join(rootReal, staging), { recursive: true, force: true });
  }
  return skills.map((s) => s.folder);
}
