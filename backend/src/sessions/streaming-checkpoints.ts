/**
 * `streaming` entries are the durable trail of a step while it streams: the recorder appends the
 * text (and thought) that arrived since its last checkpoint, at most once a second. When the step
 * moves on, its whole `assistant` (or `thought`) entry is written with the same step number and the
 * checkpoints are spent. What is left unspent at the end of a file is what a crash cut short: it
 * becomes that step's entry, marked `interrupted`.
 *
 * Everyone reading a session (the Stage, the model's history, compaction) reads it through
 * `foldStreamingEntries`, so checkpoints never show as anything but the text they carried.
 */
import type { SessionEntry } from "@mini-openclaw/protocol";

const spentBy = (channel: "text" | "thought") => (channel === "text" ? "assistant" : "thought");

export function foldStreamingEntries(entries: SessionEntry[]): SessionEntry[] {
  if (!entries.some((e) => e.type === "streaming")) return entries;
  const out: SessionEntry[] = [];
  // Checkpoints not yet spent, by "channel/step", in the order they first appeared.
  let open = new Map<string, { at: number; entry: SessionEntry }>();
  const spend = (channel: "text" | "thought", step: number | undefined) => open.delete(`${channel}/${step}`);
  for (const entry of entries) {
    if (entry.type === "user") {
      // A new turn: whatever the last one left open was cut short (the recorder always ends a step).
      open = closeOpen(out, open);
    }
    if (entry.type === "streaming") {
      const channel = entry.channel ?? "text";
      const key = `${channel}/${entry.step}`;
      const held = open.get(key);
      if (held) held.entry = { ...held.entry, content: held.entry.content + entry.content };
      else {
        open.set(key, { at: out.length, entry: { ...entry } });
        out.push(entry); // a placeholder, replaced or removed by closeOpen
      }
      continue;
    }
    if (entry.type === "assistant") spend("text", entry.step);
    if (entry.type === "thought") spend("thought", entry.step);
    out.push(entry);
  }
  closeOpen(out, open);
  return out.filter((e) => e.type !== "streaming");
}

/** Turns each open checkpoint group into its step's entry, marked interrupted, where it began. */
function closeOpen(out: SessionEntry[], open: Map<string, { at: number; entry: SessionEntry }>): Map<string, { at: number; entry: SessionEntry }> {
  for (const { at, entry } of open.values()) {
    const channel = entry.channel ?? "text";
    out[at] = {
      type: spentBy(channel),
      ts: entry.ts,
      content: entry.content,
      ...(entry.step !== undefined ? { step: entry.step } : {}),
      ...(channel === "text" ? { partial: true } : {}),
      interrupted: true,
    };
  }
  return new Map();
}
