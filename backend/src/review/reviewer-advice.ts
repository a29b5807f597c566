import type { SessionEntry } from "@mini-openclaw/protocol";

/** The reviewer's advice, as the main agent receives it: ahead of the next user message. */
export function withAdvice(advice: string | null, message: string): string {
  return advice ? `<reviewer_advice>\n${advice}\n</reviewer_advice>\n\n${message}` : message;
}

/** Advice of reviews written since the last user message: it goes with the next one. */
export function pendingAdvice(entries: SessionEntry[]): string | null {
  let advice: string | null = null;
  for (const entry of entries) {
    if (entry.type === "user") advice = null;
    else if (entry.type === "review" && entry.advice) advice = entry.advice;
  }
  return advice;
}
