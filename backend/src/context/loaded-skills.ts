import type { LoadedSkillRecord, SessionEntry } from "@mini-openclaw/protocol";
import { readSkillBlock } from "../skills/skill-block.js";

/** The text the model was given when a skill was loaded: the SKILL.md it read, or a slash command's expansion. */
function loadedText(entries: SessionEntry[], before: number, location: string): string | null {
  for (let i = before - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry.type === "event" && entry.event.type === "tool_result" && entry.event.name === "read_file" && entry.event.ok) {
      const path = entry.event.details?.path;
      if (typeof path === "string" && (location === path || location.endsWith(`/${path}`))) return entry.event.output;
    }
    if (entry.type === "user" && entry.model_content) {
      const block = readSkillBlock(entry.model_content);
      if (block?.location === location) return block.text;
    }
  }
  return null;
}

/**
 * The skills loaded in these entries, each with the text the model saw, latest load of a skill last
 * wins. Skills carried by an earlier compaction count as loaded too, so they survive every later one.
 */
export function loadedSkills(entries: SessionEntry[]): LoadedSkillRecord[] {
  const byLocation = new Map<string, LoadedSkillRecord>();
  for (const [index, entry] of entries.entries()) {
    if (entry.type === "compaction") {
      for (const skill of entry.skills ?? []) {
        byLocation.delete(skill.location);
        byLocation.set(skill.location, skill);
      }
    } else if (entry.type === "event" && entry.event.type === "skill" && entry.event.location) {
      const { name, location } = entry.event;
      const content = loadedText(entries, index, location);
      if (content === null) continue;
      byLocation.delete(location);
      byLocation.set(location, { name, location, content });
    }
  }
  return [...byLocation.values()];
}
