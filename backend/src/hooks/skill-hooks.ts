/**
 * Hooks a skill ships (`skills/<name>/hooks/hooks.json`, a Claude Code plugin's layout). A skill
 * folder is something the agent's tools can write, so its hooks run only once the user has trusted
 * exactly these files: trust names their digest, and what runs is a copy taken at that moment into
 * `storage/` (out of every tool's reach), never the folder itself. A change to the skill's hook files
 * changes the digest: the trust no longer holds and the view asks again.
 */
import { createHash } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SkillHooks } from "@mini-openclaw/protocol";
import { SKILLS_DIR, STORAGE_DIR } from "../config/data-root-layout.js";
import { UserError } from "../lib/user-error.js";
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { readConfinedFile, readConfinedTextIfPresent } from "../paths/read-confined-file.js";
import { readConfinedDir } from "../paths/walk-confined-dir.js";
import { type HookSpec, parseHooksFile } from "./hooks-file.js";

const TRUST_FILE = `${STORAGE_DIR}/hooks/trust.json`;
const COPIES_DIR = `${STORAGE_DIR}/hooks/trusted`;
const MAX_FILES = 50;
const MAX_FILE_BYTES = 1024 * 1024;
const MAX_SKILLS = 500;

interface ScannedSkill {
  skill: string;
  digest: string;
  files: Array<{ name: string; data: Buffer }>;
  specs: HookSpec[];
  problem: string | null;
}

/** A skill's hook files (those directly in its `hooks/` folder, regular files only) and their digest. */
async function scanSkill(dataRoot: string, skill: string): Promise<ScannedSkill | null> {
  const dir = `${SKILLS_DIR}/${skill}/hooks`;
  const text = await readConfinedTextIfPresent(dataRoot, `${dir}/hooks.json`, MAX_FILE_BYTES).catch((err: Error) => `\u0000${err.message}`);
  if (text === null) return null;
  const entries = (await readConfinedDir(dataRoot, dir)) ?? [];
  const files: ScannedSkill["files"] = [];
  const hash = createHash("sha256");
  for (const entry of entries.filter((e) => e.kind === "file").sort((a, b) => a.name.localeCompare(b.name)).slice(0, MAX_FILES)) {
    const file = await readConfinedFile(dataRoot, `${dir}/${entry.name}`, { maxBytes: MAX_FILE_BYTES }).catch(() => null);
    if (!file) continue;
    files.push({ name: entry.name, data: file.data });
    hash.update(`${entry.name}\u0000${file.data.length}\u0000`).update(file.data);
  }
  const digest = hash.digest("hex");
  if (text.startsWith("\u0000")) return { skill, digest, files, specs: [], problem: `${dir}/hooks.json cannot be read (${text.slice(1)})` };
  const parsed = parseHooksFile(`${dir}/hooks.json`, `skill:${skill}`, text);
  if ("problem" in parsed) return { skill, digest, files, specs: [], problem: parsed.problem };
  return { skill, digest, files, specs: parsed.value, problem: null };
}

export class SkillHooksStore {
  private scanned: ScannedSkill[] = [];
  private trust: Record<string, string> = {};
  private refreshing: Promise<void> | null = null;

  constructor(private readonly dataRoot: string) {}

  /** Looks at the skills' hook files again (a turn's start, the Hooks view): a changed file loses its trust here. */
  refresh(): Promise<void> {
    this.refreshing ??= this.scan().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async scan(): Promise<void> {
    const text = await readConfinedTextIfPresent(this.dataRoot, TRUST_FILE, MAX_FILE_BYTES).catch(() => null);
    try {
      const parsed = text ? (JSON.parse(text) as unknown) : {};
      this.trust = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
    } catch {
      this.trust = {};
    }
    const skills = ((await readConfinedDir(this.dataRoot, SKILLS_DIR)) ?? []).filter((e) => e.kind === "dir").slice(0, MAX_SKILLS);
    const found = await Promise.all(skills.map((s) => scanSkill(this.dataRoot, s.name).catch(() => null)));
    this.scanned = found.filter((s): s is ScannedSkill => s !== null);
  }

  private trusted(skill: ScannedSkill): boolean {
    return skill.problem === null && this.trust[skill.skill] === skill.digest;
  }

  /** The skills that ship hooks, for the view's trust cards. */
  list(): SkillHooks[] {
    return this.scanned.map((s) => ({
      skill: s.skill,
      digest: s.digest,
      trusted: this.trusted(s),
      commands: s.specs.map((spec) => ({ event: spec.event, ...(spec.matcher !== undefined ? { matcher: spec.matcher } : {}), command: spec.command })),
      problem: s.problem,
    }));
  }

  /** The hooks that may run: trusted skills', each from its trusted copy. Untrusted ones are listed as refused. */
  specs(): HookSpec[] {
    return this.scanned.flatMap((s): HookSpec[] => {
      if (!this.trusted(s)) return s.specs.map((spec) => ({ ...spec, refused: `the skill ${s.skill} ships this hook and you have not trusted it (the Hooks view shows it)` }));
      const pluginRoot = join(this.dataRoot, COPIES_DIR, `${s.skill}-${s.digest.slice(0, 16)}`);
      return s.specs.map((spec) => ({ ...spec, pluginRoot }));
    });
  }

  /** Trusts a skill's hooks as they are now (`digest` must be the one the user saw), or stops trusting them. */
  async setTrust(skill: string, digest: string, trusted: boolean): Promise<void> {
    await this.refresh();
    const found = this.scanned.find((s) => s.skill === skill);
    if (!found) throw new UserError("not_found", `The skill ${skill} ships no hooks.`);
    if (trusted) {
      if (found.digest !== digest) throw new UserError("conflict", `The hooks of ${skill} changed since you looked at them: look at them again before trusting them.`);
      if (found.problem) throw new UserError("unprocessable", found.problem);
      // What runs is a copy of exactly what the user saw, where no tool can change it.
      const copy = join(this.dataRoot, COPIES_DIR, `${skill}-${digest.slice(0, 16)}`);
      await rm(copy, { recursive: true, force: true });
      await mkdir(join(copy, "hooks"), { recursive: true, mode: 0o700 });
      for (const file of found.files) await writeFile(join(copy, "hooks", file.name), file.data, { mode: 0o700 });
      this.trust[skill] = digest;
    } else {
      delete this.trust[skill];
    }
    await mkdir(join(this.dataRoot, STORAGE_DIR, "hooks"), { recursive: true, mode: 0o700 });
    await writeConfinedAtomic(this.dataRoot, TRUST_FILE, `${JSON.stringify(this.trust, null, 2)}\n`);
  }
}
