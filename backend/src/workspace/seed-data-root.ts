import { constants } from "node:fs";
import { copyFile, mkdir, readdir, stat } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { defaultsDir, defaultsZhDir } from "../config/project-paths.js";
import type { DefaultsLanguage } from "@mini-openclaw/protocol";
import { AGENTS_DIR, DATA_DIRS, SKILLS_DIR, WORKSPACE_DIR } from "../config/data-root-layout.js";

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The default files' folders for a language, the first to have a file giving it. */
export const defaultsFor = (language: DefaultsLanguage): string[] => (language === "zh" ? [defaultsZhDir, defaultsDir] : [defaultsDir]);

export async function* walkFiles(dir: string): AsyncGenerator<string> {
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
 * `sources`: the defaults' folders, the first to have a file giving it (`defaultsFor(language)`).
 * Returns the data-root-relative paths it created, and whether the data root was new (no workspace folder).
 */
export async function seedDataRoot(dataRoot: string, sources: string[] = [defaultsDir]): Promise<{ created: string[]; fresh: boolean }> {
  const fresh = !(await exists(join(dataRoot, WORKSPACE_DIR)));
  const seedFolder = {
    [SKILLS_DIR]: !(await exists(join(dataRoot, SKILLS_DIR))),
    [AGENTS_DIR]: !(await exists(join(dataRoot, AGENTS_DIR))),
  };
  for (const dir of DATA_DIRS) await mkdir(join(dataRoot, dir), { recursive: true });
  const created: string[] = [];
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
  return { created, fresh };
}
