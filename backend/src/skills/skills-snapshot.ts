import type { SkillInfo, SkillsListStats } from "@mini-openclaw/protocol";
import { escapeXml } from "../lib/xml-escape.js";
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { readConfinedTextIfPresent } from "../paths/read-confined-file.js";
import { SNAPSHOT_FILE } from "../config/data-root-layout.js";
import { type SkillScan, scanSkills } from "./scan-skills.js";

/** Below this, a description says too little to choose a skill by: skills are left out instead. */
const MIN_DESCRIPTION = 80;
const ELLIPSIS = "…";

export interface RenderedSnapshot {
  text: string;
  stats: SkillsListStats;
}

/** A description cut to `max` characters at a word boundary, marked with an ellipsis. */
function shorten(description: string, max: number): string {
  if (description.length <= max) return description;
  const cut = description.slice(0, max - ELLIPSIS.length);
  const atWord = cut.replace(/\s+\S*$/, "");
  return `${atWord.length >= max / 2 ? atWord : cut}${ELLIPSIS}`;
}

function entry(skill: SkillInfo, maxDescription: number): string {
  return (
    `<skill><name>${escapeXml(skill.name)}</name>` +
    `<description>${escapeXml(shorten(skill.description, maxDescription))}</description>` +
    `<location>${escapeXml(skill.location)}</location></skill>`
  );
}

/** What the model is told when the list could not hold everything: enough to find the rest. */
function note(shortened: number, omitted: number, budget: number): string {
  const parts = [];
  if (shortened) parts.push(`${shortened} descriptions are shortened (marked ${ELLIPSIS}); the SKILL.md has the whole one`);
  if (omitted) parts.push(`${omitted} more skills are installed but not listed; \`ls skills\` with terminal shows every skill folder`);
  return parts.length ? `[The skills list has a budget of ${budget} characters: ${parts.join(". ")}.]\n` : "";
}

function assemble(skills: SkillInfo[], maxDescription: number, omitted: number, budget: number): string {
  const shortened = skills.filter((s) => s.description.length > maxDescription).length;
  const lines = ["<available_skills>", ...skills.map((s) => entry(s, maxDescription)), "</available_skills>", ""];
  return lines.join("\n") + note(shortened, omitted, budget);
}

/**
 * The skills list of the system prompt: names, descriptions and locations (the agent reads a
 * skill's body on demand), within its own character budget. Over the budget the longest
 * descriptions are shortened first (all to one cap, never below MIN_DESCRIPTION), then skills are
 * left out whole from the end of the list; no entry is ever cut in the middle. A pure function of
 * the skills, so an unchanged set gives a byte-identical prompt.
 */
export function renderSnapshot(skills: SkillInfo[], budgetChars: number): RenderedSnapshot {
  const longest = Math.max(MIN_DESCRIPTION, ...skills.map((s) => s.description.length));
  const fits = (count: number, cap: number) => assemble(skills.slice(0, count), cap, skills.length - count, budgetChars).length <= budgetChars;

  let count = skills.length;
  let cap = longest;
  if (!fits(count, cap)) {
    // The largest cap that fits, by bisection (the length only grows with the cap).
    let low = MIN_DESCRIPTION;
    let high = longest;
    if (fits(count, low)) {
      while (low < high) {
        const mid = Math.ceil((low + high) / 2);
        if (fits(count, mid)) low = mid;
        else high = mid - 1;
      }
      cap = low;
    } else {
      cap = MIN_DESCRIPTION;
      let lo = 0;
      let hi = count;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (fits(mid, cap)) lo = mid;
        else hi = mid - 1;
      }
      count = lo;
    }
  }
  const listed = skills.slice(0, count);
  const text = assemble(listed, cap, skills.length - count, budgetChars);
  return {
    text,
    stats: {
      listed: listed.length,
      shortened: listed.filter((s) => s.description.length > cap).map((s) => s.name),
      omitted: skills.slice(count).map((s) => s.name),
      chars: text.length,
      budget_chars: budgetChars,
    },
  };
}

/**
 * Scans the skills and writes SKILLS_SNAPSHOT.md, at the start of every session. The file is only
 * rewritten when its content changes, so an unchanged snapshot keeps the prompt byte-identical.
 */
export async function refreshSkillsSnapshot(dataRoot: string, locationPrefix: string, budgetChars: number): Promise<{ scan: SkillScan; snapshot: RenderedSnapshot }> {
  const scan = await scanSkills(dataRoot, locationPrefix);
  const snapshot = renderSnapshot(scan.skills, budgetChars);
  // Anything unreadable there (a planted link) is simply replaced by the rename.
  const current = await readConfinedTextIfPresent(dataRoot, SNAPSHOT_FILE, 4 * 1024 * 1024).catch(() => null);
  if (current !== snapshot.text) await writeConfinedAtomic(dataRoot, SNAPSHOT_FILE, snapshot.text);
  return { scan, snapshot };
}
