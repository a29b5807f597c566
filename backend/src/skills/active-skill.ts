/** The skill a turn runs under once its SKILL.md was read (or `/name` invoked it). */
export interface ActiveSkill {
  name: string;
  location: string;
  /** Frontmatter `allowed-tools`: while the skill is active, other core tools are refused. */
  allowedTools: string[] | null;
  /** For `terminal` (`Bash(git:*)`): the commands it may start with; null or absent: any. */
  allowedCommands?: string[] | null;
}
