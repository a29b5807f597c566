import { constants } from "node:fs";
import { copyFile, mkdir, readdir, stat } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { defaultsDir, defaultsZhDir } from "../config/project-paths.js";
import { AGENTS_DIR, DATA_DIRS, SKILLS_DIR } from "../config/data-root-layout.js";

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function* walkFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* walkFiles(full);
    else if (entry.isFile() && entry.name !== ".gitkeep") yield full;
  }
}

/**
 * Gives an empty or partial data root the default files. Never overwrites: a file the user
 * changed stays as it is. Default skills and roles are only seeded into a data root that has no
 * such folder yet, so a skill or role the user deleted does not come back.
 * `language`: the default files in Chinese where there is a translation, the English ones for the rest.
 * Returns the data-root-relative paths it created.
 */
export async function seedDataRoot(dataRoot: string, language: "en" | "zh" = "en", from = defaultsDir): Promise<string[]> {
  const seedFolder = {
    [SKILLS_DIR]: !(await exists(join(dataRoot, SKILLS_DIR))),
    [AGENTS_DIR]: !(await exists(join(dataRoot, AGENTS_DIR))),
  };
  for (const dir of DATA_DIRS) await mkdir(join(dataRoot, dir), { recursive: true });
  const created: string[] = [];
  // The first folder to have a file gives it (the copy never overwrites).
  const sources = language === "zh" && from === defaultsDir ? [defaultsZhDir, from] : [from];
  for (const dir of sources) for await (const source of walkFiles(dir)) {
    const rel = relative(dir, source);
    const folder = rel.split("/")[0];
    if (folder in seedFolder && !seedFolder[folder as keyof typeof seedFolder]) continue;
    const target = join(dataRoot, rel);
    await mkdir(dirname(target), { recursive: true });
    try {
      await copyFile(source, target, constants.COPYFILE_EXCL);
      created.push(rel);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  return created;
}
