import type { ChatEvent } from "@mini-openclaw/protocol";

/**
 * Keeps a sub-agent's events as its stored trace: streamed pieces of text and thought merged, the
 * live-only events (usage, nested `delegate` events, whose own trace sits in the nested call's result) left out.
 */
export function appendToTrace(trace: ChatEvent[], event: ChatEvent): void {
  if (event.type === "usage" || event.type === "delegate" || event.type === "session" || event.type === "prefix") return;
  const last = trace[trace.length - 1];
  if ((event.type === "token" || event.type === "thought") && last?.type === event.type) {
    trace[trace.length - 1] = { ...last, content: last.content + event.content };
    return;
  }
  trace.push(event);
}
