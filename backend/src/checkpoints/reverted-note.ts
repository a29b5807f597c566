import type { SessionEntry } from "@mini-openclaw/protocol";

/** Files the user put back since the last user message (revert, rewind): the agent hears of them with the next one. */
export function pendingReverted(entries: SessionEntry[]): string[] {
  let paths = new Set<string>();
  for (const entry of entries) {
    if (entry.type === "user") paths = new Set();
    else if (entry.type === "meta" && entry.reverted) for (const path of entry.reverted) paths.add(path);
  }
  return [...paths].sort();
}

/** The user's message with a note of the files put back ahead of it (the agent must not trust what it wrote there before). */
export function withRevertedNote(paths: string[], message: string): string {
  if (paths.length === 0) return message;
  return `<files_reverted>\nThe user put these files back to an earlier state since your last turn (undoing tool changes); what you wrote there before is gone:\n${paths.map((p) => `- ${p}`).join("\n")}\n</files_reverted>\n\n${message}`;
}
