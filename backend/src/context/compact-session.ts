import type { CompactionEntry, SessionEntry } from "@mini-openclaw/protocol";
import { summarizeConversation } from "../agent/summarize-conversation.js";
import type { ResolvedProfile } from "../config/resolved-profile.js";
import { historyMessages } from "./session-history.js";
import { loadedSkills } from "./loaded-skills.js";
import { renderTranscript } from "./render-transcript.js";

export interface CompactionPlan {
  /** Entries of the turns to summarize (an earlier compaction among them stands for its turns). */
  covered: SessionEntry[];
  coversTurns: number;
}

/** Index of the first entry of each turn (its user entry). */
function turnStarts(entries: SessionEntry[]): number[] {
  return entries.flatMap((entry, index) => (entry.type === "user" ? [index] : []));
}

/**
 * Which turns a compaction that keeps the last `keepTurns` turns as they are would summarize;
 * null when that covers nothing beyond the last compaction.
 */
export function planCompaction(entries: SessionEntry[], keepTurns: number): CompactionPlan | null {
  const starts = turnStarts(entries);
  const coversTurns = Math.max(0, starts.length - keepTurns);
  const already = entries.findLast((entry) => entry.type === "compaction")?.covers_turns ?? 0;
  if (coversTurns <= already) return null;
  const end = coversTurns < starts.length ? starts[coversTurns] : entries.length;
  return { covered: entries.slice(0, end), coversTurns };
}

/**
 * Summarizes the planned turns with the model and returns the `compaction` entry that stands for
 * them from now on (not yet written). The skills loaded in them are carried whole, not summarized.
 */
export async function compactTurns(
  profile: ResolvedProfile,
  plan: CompactionPlan,
  options: { forced: boolean; budgetTokens: number; signal: AbortSignal },
): Promise<CompactionEntry> {
  // The summarizer's own request must fit too: at most half the budget of transcript.
  const transcript = renderTranscript(historyMessages(plan.covered), Math.max(4_000, options.budgetTokens * 2));
  const { summary, usage } = await summarizeConversation(profile, transcript, options.signal);
  return {
    type: "compaction",
    ts: new Date().toISOString(),
    content: summary,
    covers_turns: plan.coversTurns,
    skills: loadedSkills(plan.covered),
    forced: options.forced,
    ...(usage ? { usage } : {}),
  };
}
