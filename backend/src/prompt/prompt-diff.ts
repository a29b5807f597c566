/**
 * What the model was sent in one run against another, section by section (the six files, the skills
 * list, the daily logs, a generated section): the same, changed (the changed lines with one line of
 * context), or in one only.
 */
import type { PromptSectionDiff } from "@mini-openclaw/protocol";
import { lineDiff, withContext } from "@mini-openclaw/protocol/line-diff";
import type { KeptPrompt } from "./prompt-history.js";

export function diffPrompts(before: KeptPrompt | null, after: KeptPrompt | null): PromptSectionDiff[] {
  const a = new Map((before?.sections ?? []).map((s) => [s.name, s]));
  const b = new Map((after?.sections ?? []).map((s) => [s.name, s]));
  const names = [...new Set([...a.keys(), ...b.keys()])];
  return names.map((name): PromptSectionDiff => {
    const was = a.get(name);
    const now = b.get(name);
    const path = (now ?? was)!.path;
    const sizes = { ...(was ? { before_chars: was.text.length } : {}), ...(now ? { after_chars: now.text.length } : {}) };
    if (!was) return { name, path, status: "added", ...sizes };
    if (!now) return { name, path, status: "removed", ...sizes };
    if (was.text === now.text) return { name, path, status: "same", ...sizes };
    const lines = lineDiff(was.text, now.text);
    // Past the diff's size limit the section is said to differ, without its lines.
    const shown = lines ? withContext(lines, 1).map((line) => line ?? { kind: "same" as const, text: "…" }) : undefined;
    return { name, path, status: "changed", ...sizes, ...(shown ? { lines: shown } : {}) };
  });
}
