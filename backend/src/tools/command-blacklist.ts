/**
 * The second layer behind the sandbox: commands that are never what a user wants from an agent,
 * refused before anything runs. The sandbox is what confines; this list only catches the obvious
 * (and keeps a degraded, unsandboxed run from the worst mistakes).
 */
const RULES: Array<{ pattern: RegExp; reason: string }> = [
  { pattern: /\brm\s+(-[a-zA-Z]*[rf][a-zA-Z]*\s+)+(--no-preserve-root\s+)?(\/|\/\*|~|~\/|\$HOME|\/\w+\/?\*?)(\s|$|;|&|\|)/, reason: "recursive delete of a system or home folder" },
  { pattern: /--no-preserve-root/, reason: "rm --no-preserve-root" },
  { pattern: /\bmkfs(\.\w+)?\b|\bwipefs\b|\bfdisk\b|\bparted\b/, reason: "formatting or partitioning disks" },
  { pattern: /\bdd\b[^|;&]*\bof=\/dev\//, reason: "writing to a raw device" },
  { pattern: />\s*\/dev\/(sd|nvme|hd|vd|xvd)[a-z0-9]*/, reason: "writing to a raw device" },
  { pattern: /:\s*\(\s*\)\s*\{[^}]*:\s*\|\s*:/, reason: "a fork bomb" },
  { pattern: /\b(shutdown|reboot|halt|poweroff|init\s+[06]|telinit)\b/, reason: "shutting the machine down" },
  { pattern: /\bchmod\s+(-[a-zA-Z]*R[a-zA-Z]*\s+)\S+\s+\/(\s|$)/, reason: "changing permissions of the whole system" },
  { pattern: /\bchown\s+(-[a-zA-Z]*R[a-zA-Z]*\s+)\S+\s+\/(\s|$)/, reason: "changing ownership of the whole system" },
  { pattern: /\b(curl|wget)\b[^|;&]*\|\s*(sudo\s+)?(ba|z|da)?sh\b/, reason: "piping a download into a shell" },
  { pattern: /\bsudo\b|\bsu\s+-?\s*\w*\s*$/, reason: "privilege escalation (sudo/su)" },
  { pattern: /\/proc\/sysrq-trigger|\bsysctl\s+-w\b/, reason: "changing kernel settings" },
];

export function blacklistReason(command: string): string | null {
  for (const rule of RULES) if (rule.pattern.test(command)) return rule.reason;
  return null;
}
