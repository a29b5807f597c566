import type { SessionEntry } from "@mini-openclaw/protocol";
import { IMAGES_KEPT, messageContent } from "../attachments/attachment-content.js";
import type { AttachmentStore, ModelInput } from "../attachments/attachment-store.js";
import type { AttachedContent } from "./session-history.js";

/**
 * What the model gets of the attachments of earlier messages, loaded before the history is made:
 * their text again, and the newest IMAGES_KEPT images as images (older ones are named). An
 * attachment that can no longer be read is named as missing rather than failing the turn.
 */
export async function attachedContent(store: AttachmentStore, entries: SessionEntry[]): Promise<AttachedContent> {
  const attachments = entries.flatMap((entry) => (entry.type === "user" ? (entry.attachments ?? []) : []));
  const inputs = new Map<string, ModelInput | null>();
  await Promise.all(attachments.map(async (a) => inputs.set(a.id, await store.modelInput(a).catch(() => null))));
  // The newest images stay images; which ones, counted from the end of the conversation.
  const imageIds = attachments.filter((a) => a.kind === "image").map((a) => a.id);
  const sent = new Set(imageIds.slice(-IMAGES_KEPT));
  return (entry, text) => {
    const own = (entry.attachments ?? []).flatMap((a) => {
      const input = inputs.get(a.id);
      return input ? [input] : [];
    });
    const missing = (entry.attachments ?? []).filter((a) => !inputs.get(a.id)).map((a) => `\n\n[Attachment ${a.name}: no longer available.]`);
    const images = own.filter((i) => i.kind === "image");
    const allSent = images.every((i) => sent.has(i.attachment.id));
    return messageContent(text + missing.join(""), own, allSent);
  };
}
