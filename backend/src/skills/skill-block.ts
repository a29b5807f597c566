/**
 * How a skill's text enters the conversation (a slash command, a compaction carrying it over):
 * one format, written and read here.
 */
export function skillBlock(name: string, location: string, text: string): string {
  return `<skill name="${name}" location="${location}">\n${text}\n</skill>`;
}

const SKILL_BLOCK = /<skill name="([^"]*)" location="([^"]*)">\n([\s\S]*?)\n<\/skill>/;

/** The first skill block in a message, if any. */
export function readSkillBlock(message: string): { name: string; location: string; text: string } | null {
  const match = SKILL_BLOCK.exec(message);
  return match ? { name: match[1], location: match[2], text: match[3] } : null;
}
