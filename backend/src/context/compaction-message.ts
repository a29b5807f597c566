import type { SessionEntry } from "@mini-openclaw/protocol";

/**
 * What the model is sent in place of the turns a compaction covers: the summary, then every skill
 * loaded in them, whole, so a loaded skill keeps applying after any number of compactions.
 */
export function compactionMessage(entry: SessionEntry): string {
  const skills = (entry.skills ?? []).map((s) => `<skill name="${s.name}" location="${s.location}">\n${s.content}\n</skill>\n`).join("");
  return (
    `<conversation_summary turns="${entry.covers_turns ?? 0}">\n${entry.content}\n</conversation_summary>\n` +
    (skills ? `\nSkills loaded earlier in this conversation (they still apply):\n${skills}` : "") +
    `\nThe first ${entry.covers_turns ?? 0} turns of this conversation were summarized above to fit the context budget; it continues below.`
  );
}
