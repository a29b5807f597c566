import { randomBytes } from "node:crypto";
import { lstat } from "node:fs/promises";
import { UserError } from "../lib/user-error.js";
import { DirHandle } from "../paths/dir-handle.js";
import { SKILLS_DIR } from "../config/data-root-layout.js";
import type { ArchiveSkill } from "./read-skill-archive.js";

/** A script (`#!` first) keeps running as `./scripts/x.sh`: zips from the collections carry the bit, fflate does not report it. */
const modeFor = (data: Uint8Array) => (data[0] === 0x23 && data[1] === 0x21 ? 0o755 : 0o644);

/**
 * Writes skills into `skills/<folder>`, all or nothing: each is written whole into a hidden staging
 * folder (the scan skips dot folders), then moved into place. A folder that already exists is a 409
 * and nothing is written: replacing a skill is a deliberate step (delete the old folder first).
 * skills/ is the sandbox's to write, so every step goes through open folder descriptors
 * (dir-handle.ts): a staging folder swapped for a link is never followed, and nothing outside the
 * data root is ever moved in.
 */
export async function installSkills(dataRoot: string, skills: ArchiveSkill[]): Promise<string[]> {
  const root = await DirHandle.openRoot(dataRoot);
  try {
    const skillsDir = await root.dir(SKILLS_DIR, { create: true });
    try {
      for (const { folder } of skills) {
        if (await lstat(skillsDir.at(folder)).catch(() => null)) {
          throw new UserError("conflict", `A skill folder ${SKILLS_DIR}/${folder} already exists. Nothing was installed; delete or rename that folder to replace it.`);
        }
      }
      const stagingName = `.installing-${randomBytes(6).toString("hex")}`;
      const staging = await skillsDir.dir(stagingName, { create: true });
      try {
        for (const skill of skills) {
          for (const file of skill.files) {
            const parts = `${skill.folder}/${file.path}`.split("/");
            const name = parts.pop()!;
            const folder = await staging.dirPath(parts.join("/"), { create: true });
            try {
              await folder.writeFileAtomic(name, file.data, modeFor(file.data));
            } finally {
              await folder.close();
            }
          }
        }
        for (const skill of skills) {
          try {
            await staging.moveTo(skill.folder, skillsDir, skill.folder);
          } catch (err) {
            const code = (err as NodeJS.ErrnoException).code;
            if (code === "ENOTEMPTY" || code === "EEXIST" || code === "ENOTDIR") throw new UserError("conflict", `A skill folder ${SKILLS_DIR}/${skill.folder} appeared during the install; it was left as it is.`);
            throw err;
          }
        }
      } finally {
        await staging.close();
        // Best effort: the sandbox may be changing skills/ right now; a staging folder left behind is hidden and inert.
        await skillsDir.remove(stagingName).catch(() => {});
      }
    } finally {
      await skillsDir.close();
    }
  } finally {
    await root.close();
  }
  return skills.map((s) => s.folder);
}
