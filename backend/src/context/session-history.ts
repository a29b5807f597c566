import { AIMessage, type BaseMessage, HumanMessage, type MessageContent, ToolMessage } from "@langchain/core/messages";
import type { SessionEntry, StoredEvent, UserEntry } from "@mini-openclaw/protocol";
import { compactionMessage } from "./compaction-message.js";
import { withAdvice } from "../review/reviewer-advice.js";
import { stopHookMessage, withHookNotes } from "../agent/hook-ports.js";

type ToolCallEvent = Extract<StoredEvent, { type: "tool_call" }>;
type ToolResultEvent = Extract<StoredEvent, { type: "tool_result" }>;

interface Step {
  text: string;
  /** Its reasoning (thoughts, and text that turned out to be reasoning), for servers that want it back. */
  reasoning: string;
  calls: ToolCallEvent[];
  results: ToolResultEvent[];
}

const argsOf = (input: unknown): Record<string, unknown> =>
  input !== null && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : { input };

/** A user message with attachments, as the model gets it (attachment-content.ts), from content loaded beforehand. */
export type AttachedContent = (entry: UserEntry, text: string) => MessageContent;

/**
 * The conversation the model is sent, derived from a session's entries: user messages (as the model
 * was sent them), and for each model step of a turn its text and tool calls followed by their
 * results. Everything else a turn streamed (thoughts, skills, usage, a sub-agent's trace...) is for
 * the user. A call whose result was never written (a crash mid-call) is left out, so the
 * conversation stays valid for the provider; the text of a step cut short (an error, a crash) is
 * kept, as the model saw itself write it. After a compaction, its summary (and the skills it carries)
 * stands in for the turns it covers. A reviewer's advice goes ahead of the user message that
 * followed it; its record is never sent. A steer (the user's message into a running turn) is a user
 * message where it was delivered.
 */
export function historyMessages(entries: SessionEntry[], attachmentsOf?: AttachedContent): BaseMessage[] {
  const messages: BaseMessage[] = [];
  let steps = new Map<number, Step>();
  let pendingText = "";
  /** The reasoning of the step under way. */
  let pendingReasoning = "";
  /** Where each text block of the step so far begins in `pendingText` (a late thought takes a block back). */
  let blockStarts = new Map<string, number>();
  /** Where the current turn's user message is in `messages` (a hook that blocked it takes the turn out). */
  let turnStart = -1;
  /** The current turn's user message as the model was sent it: built again when a hook added context to it. */
  let userMessage: { build: (context: string[]) => BaseMessage; context: string[] } | null = null;
  /** The reasons of the Stop hooks that made the agent go on at this point (one message to the model, as it was sent). */
  let stopReasons: string[] | null = null;
  const stepOf = (n: number) => {
    let step = steps.get(n);
    if (!step) steps.set(n, (step = { text: "", reasoning: "", calls: [], results: [] }));
    return step;
  };
  const endTurn = (answer: string) => {
    for (const [, step] of [...steps.entries()].sort(([a], [b]) => a - b)) {
      // In call order, as the model made them and was sent their results; a call never answered is left out.
      const answered = step.calls.flatMap((c) => step.results.filter((r) => r.id === c.id).slice(0, 1).map((r) => ({ call: c, result: r })));
      if (answered.length > 0) {
        messages.push(
          new AIMessage({
            content: step.text,
            tool_calls: answered.map(({ call: c }) => ({ id: c.id, name: c.name, args: argsOf(c.input), type: "tool_call" as const })),
            ...(step.reasoning ? { additional_kwargs: { reasoning_content: step.reasoning } } : {}),
          }),
        );
        for (const { result: r } of answered) messages.push(new ToolMessage({ content: r.output, tool_call_id: r.id, name: r.name }));
      } else if (step.text) {
        messages.push(new AIMessage(step.text));
      }
    }
    if (answer) messages.push(new AIMessage(answer));
    steps = new Map();
    pendingText = "";
    pendingReasoning = "";
    blockStarts = new Map();
  };
  const onEvent = (event: StoredEvent) => {
    switch (event.type) {
      case "text_start":
        blockStarts.set(event.block, pendingText.length);
        return;
      case "token":
        pendingText += event.content;
        return;
      case "step_start":
        pendingReasoning = "";
        stopReasons = null;
        return;
      case "thought":
        pendingReasoning += event.content;
        return;
      case "late_thought": {
        // The block's last `chars` characters (all of it, in a stream with blocks) were reasoning.
        const start = event.block !== undefined ? (blockStarts.get(event.block) ?? 0) : 0;
        const cut = Math.max(start, pendingText.length - event.chars);
        pendingReasoning += pendingText.slice(cut);
        pendingText = pendingText.slice(0, cut);
        return;
      }
      case "tool_call": {
        const step = stepOf(event.step);
        step.text += pendingText;
        step.reasoning += pendingReasoning;
        pendingText = "";
        pendingReasoning = "";
        blockStarts = new Map();
        step.calls.push(event);
        return;
      }
      case "tool_result": {
        const step = [...steps.values()].find((s) => s.calls.some((c) => c.id === event.id));
        step?.results.push(event);
        return;
      }
      case "final":
        pendingText = event.content;
        return;
      case "hook":
        // A message a hook blocked never reached the model; context a hook added to it did; a Stop hook
        // that made the agent go on is a user message there.
        if (event.event === "UserPromptSubmit" && (event.decision === "block" || event.decision === "stop") && turnStart >= 0) {
          messages.splice(turnStart);
          turnStart = -1;
          userMessage = null;
        } else if ((event.event === "UserPromptSubmit" || event.event === "SessionStart") && event.additional_context && userMessage && turnStart >= 0) {
          userMessage.context.push(event.additional_context);
          messages[turnStart] = userMessage.build(userMessage.context);
        } else if (event.event === "Stop" && event.decision === "block" && event.reason) {
          if (stopReasons === null) {
            endTurn(pendingText);
            stopReasons = [event.reason];
          } else {
            stopReasons.push(event.reason);
            messages.pop();
          }
          messages.push(new HumanMessage(stopHookMessage(stopReasons.join("; "))));
        }
        return;
      case "steer":
        // The model was sent what came before it, then the user's message, within the same turn.
        endTurn(pendingText);
        messages.push(new HumanMessage(event.content));
        return;
      default:
        return;
    }
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
      endTurn(pendingText);
      const said = entry.model_content ?? entry.content;
      const given = advice;
      const build = (context: string[]) => {
        const text = withAdvice(given, context.length > 0 ? withHookNotes(said, { context }) : said);
        return new HumanMessage(entry.attachments?.length && attachmentsOf ? attachmentsOf(entry, text) : text);
      };
      turnStart = messages.length;
      stopReasons = null;
      userMessage = { build, context: [] };
      messages.push(build([]));
      advice = null;
    } else if (entry.type === "event") {
      onEvent(entry.event);
    }
  }
  endTurn(pendingText);
  return messages;
}
