import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import type { SessionEntry, SessionToolRecord } from "@mini-openclaw/protocol";
import { compactionMessage } from "../context/compaction-message.js";
import { withAdvice } from "../review/reviewer-advice.js";

interface Step {
  text: string;
  tools: SessionToolRecord[];
}

const argsOf = (input: unknown): Record<string, unknown> =>
  input !== null && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : { input };

/**
 * Rebuilds the model conversation from a session file: user messages, and for each model step
 * its text and tool calls followed by their results. Thoughts, skill and error records are for
 * the user, not the model. Tool calls whose result was never written (a crash mid-call) are left
 * out, so the conversation stays valid for the provider. After a compaction, its summary (and the
 * skills it carries) stands in for the turns it covers. A reviewer's advice goes ahead of the user
 * message that followed it; its record is never sent.
 */
export function historyMessages(entries: SessionEntry[]): BaseMessage[] {
  const messages: BaseMessage[] = [];
  let steps = new Map<number, Step>();
  const stepOf = (n: number) => {
    let step = steps.get(n);
    if (!step) steps.set(n, (step = { text: "", tools: [] }));
    return step;
  };
  const flushTurn = () => {
    for (const [, step] of [...steps.entries()].sort(([a], [b]) => a - b)) {
      if (step.tools.length > 0) {
        messages.push(
          new AIMessage({
            content: step.text,
            tool_calls: step.tools.map((t) => ({ id: t.id, name: t.name, args: argsOf(t.input), type: "tool_call" as const })),
          }),
        );
        for (const t of step.tools) messages.push(new ToolMessage({ content: t.output, tool_call_id: t.id, name: t.name }));
      } else if (step.text) {
        messages.push(new AIMessage(step.text));
      }
    }
    steps = new Map();
  };

  const compaction = entries.findLast((entry) => entry.type === "compaction");
  const covered = compaction?.covers_turns ?? 0;
  if (compaction) messages.push(new HumanMessage(compactionMessage(compaction)));
  let turn = -1;
  let advice: string | null = null;
  for (const entry of entries) {
    if (entry.type === "review") {
      advice = entry.advice || null;
      continue;
    }
    if (entry.type === "user") turn++;
    if (turn < covered) {
      if (entry.type === "user") advice = null;
      continue;
    }
    if (entry.type === "user") {
      flushTurn();
      messages.push(new HumanMessage(withAdvice(advice, entry.model_content ?? entry.content)));
      advice = null;
    } else if (entry.type === "assistant") {
      stepOf(entry.step ?? Number.MAX_SAFE_INTEGER).text += entry.content;
    } else if (entry.type === "tool" && entry.tool) {
      stepOf(entry.step ?? Number.MAX_SAFE_INTEGER).tools.push(entry.tool);
    }
  }
  flushTurn();
  return messages;
}
