/**
 * A user message with its attachments as the model gets it: the text first, then each text or
 * document inline in a fenced block headed by its name (up to a budget: what is cut is said), then
 * the images as OpenAI's `image_url` parts. Images of earlier messages past the last few are named
 * instead of sent again, to keep the context small.
 */
import type { MessageContent } from "@langchain/core/messages";
import type { ModelInput } from "./attachment-store.js";

/** Characters of one file's text in a message. */
export const MAX_FILE_CHARS = 20_000;
/** Characters of all of a message's files' text. */
export const MAX_MESSAGE_FILE_CHARS = 60_000;
/** Images of the conversation sent as images: the newest ones; older ones are named in their message. */
export const IMAGES_KEPT = 4;

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
function fenceFor(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return "`".repeat(Math.max(3, longest + 1));
}

/** `imagesSent`: whether this message's images go as images (false: named only, an older message). */
export function messageContent(text: string, inputs: ModelInput[], imagesSent = true): MessageContent {
  let budget = MAX_MESSAGE_FILE_CHARS;
  let body = text;
  const images: Array<{ type: "image_url"; image_url: { url: string } }> = [];
  for (const input of inputs) {
    const { name } = input.attachment;
    if (input.kind === "image") {
      if (imagesSent) images.push({ type: "image_url", image_url: { url: input.dataUrl } });
      else body += `\n\n[Image ${name}: attached to this message earlier; not sent again.]`;
      if (input.attachment.path) body += `\n\n[Image ${name} is also a file the tools can read: ${input.attachment.path}]`;
      continue;
    }
    const allowed = Math.max(0, Math.min(MAX_FILE_CHARS, budget));
    const shown = input.text.slice(0, allowed);
    budget -= shown.length;
    const fence = fenceFor(shown);
    body += `\n\nAttached file: ${name}${input.attachment.path ? ` (the tools read it at ${input.attachment.path})` : ""}\n${fence}\n${shown}\n${fence}`;
    const cut = input.text.length - shown.length;
    if (cut > 0) {
      const whole = input.attachment.path ? `read the whole file at ${input.attachment.path}` : "ask the user for the part you need";
      body += `\n[${name}: only its first ${shown.length.toLocaleString("en")} characters are above; ${cut.toLocaleString("en")} more were not sent: ${whole}.]`;
    }
  }
  return images.length > 0 ? [{ type: "text", text: body }, ...images] : body;
}
