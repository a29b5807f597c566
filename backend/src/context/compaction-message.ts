import type { CompactionEntry } from "@mini-openclaw/protocol";
import { skillBlock } from "../skills/skill-block.js";

/**
 * What the model is sent in place of the turns a compaction covers: the summary, then every skill
 * loaded in them, whole, so a loaded skill keeps applying after any number of compactions.
 */
export function compactionMessage(entry: CompactionEntry): string {
  const skills = entry.skills.map((s) => `${skillBlock(s.name, s.location, s.content)}\n`).join("");
  return (
    `<conversation_summary turns="${entry.covers_turns}">\n${entry.content}\n</conversation_summary>\n` +
    (skills ? `\nSkills loaded earlier in this conversation (they still apply):\n${skills}` : "") +
    `\nThe first ${entry.covers_turns} turns of this conversation were summarized above to fit the context budget; it continues below.`
  );
}
