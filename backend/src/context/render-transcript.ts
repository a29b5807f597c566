import type { BaseMessage } from "@langchain/core/messages";
import { textOf } from "../agent/message-text.js";
import { OutputCap } from "../sandbox/output-cap.js";

/** A tool result longer than this is cut in the transcript: the summary needs its gist, not all of it. */
const TOOL_OUTPUT_CHARS = 2_000;

/** A conversation as plain text for the summarizer: who said what, which tools ran with what result. */
export function renderTranscript(messages: BaseMessage[], maxChars: number): string {
  const cap = new OutputCap(maxChars);
  for (const message of messages) {
    const text = textOf(message.content);
    switch (message.getType()) {
      case "human":
        cap.push(`## User\n${text}\n\n`);
        break;
      case "ai": {
        const calls = (message as { tool_calls?: Array<{ name: string; args: unknown }> }).tool_calls ?? [];
        if (text) cap.push(`## Assistant\n${text}\n\n`);
        for (const call of calls) cap.push(`## Assistant called ${call.name}\n${JSON.stringify(call.args)}\n\n`);
        break;
      }
      case "tool": {
        const output = new OutputCap(TOOL_OUTPUT_CHARS);
        output.push(text);
        cap.push(`## Result of ${(message as { name?: string }).name ?? "tool"}\n${output.text()}\n\n`);
        break;
      }
      default:
        break;
    }
  }
  return cap.text().trimEnd();
}
