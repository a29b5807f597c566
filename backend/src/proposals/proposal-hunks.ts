/**
 * Applying a proposal's hunks to a file as it is now. A hunk names the text it changes (`old`), not a
 * line number, so it re-bases itself over any edit elsewhere in the file; when that text is no longer
 * there exactly once, or a new file's place is taken, the hunk is stale and is never applied over the
 * user's edit.
 */
import type { ProposalHunk } from "@mini-openclaw/protocol";

export type Applied = { content: string } | { stale: string };

const count = (haystack: string, needle: string): number => {
  let n = 0;
  for (let at = haystack.indexOf(needle); at !== -1 && n < 2; at = haystack.indexOf(needle, at + needle.length)) n += 1;
  return n;
};

/** The text a hunk writes: the user's (edit then accept) or its own. */
const written = (hunk: Pick<ProposalHunk, "text">, text?: string) => text ?? hunk.text ?? "";

/** `current` with one hunk applied (`text` in place of the hunk's own), or why it cannot be. */
export function applyHunk(current: string | null, hunk: Pick<ProposalHunk, "op" | "old" | "text">, text?: string): Applied {
  const value = written(hunk, text);
  if (hunk.op === "create") return current === null ? { content: value.endsWith("\n") ? value : `${value}\n` } : { stale: "The file exists now; a new one cannot be put in its place." };
  if (current === null) return { stale: "The file is not there any more." };
  if (hunk.op === "add") {
    if (value.trim() === "") return { stale: "Nothing to add." };
    const base = current === "" || current.endsWith("\n") ? current : `${current}\n`;
    return { content: `${base}${value.endsWith("\n") ? value : `${value}\n`}` };
  }
  const old = hunk.old ?? "";
  if (old.trim() === "") return { stale: "The proposal does not say what text it changes." };
  const found = count(current, old);
  if (found === 0) return { stale: "The text it changes is no longer in the file (edited since)." };
  if (found > 1) return { stale: "The text it changes is in the file more than once; edit the file by hand." };
  const at = current.indexOf(old);
  // A removed line takes its line break with it.
  const end = hunk.op === "remove" && !old.endsWith("\n") && current[at + old.length] === "\n" ? at + old.length + 1 : at + old.length;
  return { content: current.slice(0, at) + (hunk.op === "remove" ? "" : value) + current.slice(end) };
}

/** Why a hunk cannot be applied to the file as it is now, or null. */
export function staleReason(current: string | null, hunk: Pick<ProposalHunk, "op" | "old" | "text">): string | null {
  const applied = applyHunk(current, hunk);
  return "stale" in applied ? applied.stale : null;
}

/** The file with every pending hunk that applies, applied in order (the diff's right side). */
export function proposedContent(current: string | null, hunks: Array<Pick<ProposalHunk, "op" | "old" | "text" | "state">>): string {
  let content = current;
  for (const hunk of hunks) {
    if (hunk.state !== "pending") continue;
    const applied = applyHunk(content, hunk);
    if ("content" in applied) content = applied.content;
  }
  return content ?? "";
}
