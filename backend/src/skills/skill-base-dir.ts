/**
 * A loaded skill learns where it lives, as Claude Code tells its agent ("Base directory for this
 * skill: ..."): its `{baseDir}` placeholders (OpenClaw's skills) are filled in, and a line names the
 * folder, so `scripts/x.py` in a SKILL.md can be run as `python3 skills/<folder>/scripts/x.py` from
 * the data root, where tools run.
 */
export function withBaseDir(text: string, baseDir: string): string {
  return `Base directory for this skill: ${baseDir}\n\n${text.replaceAll("{baseDir}", baseDir)}`;
}
