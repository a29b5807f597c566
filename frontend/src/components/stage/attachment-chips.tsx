"use client";
import type { Attachment } from "@mini-openclaw/protocol";
import { BookPlus, Check, Paperclip } from "lucide-react";
import { createContext, useContext, useState } from "react";
import { api } from "@/lib/api";
import { uploadKnowledgeFile } from "@/lib/upload";
import { formatBytes } from "@/i18n/format";
import { useTranslation } from "react-i18next";

/** Opens an attachment in the Inspector (the workbench provides it). */
export const AttachmentContext = createContext<((attachment: Attachment) => void) | null>(null);

/** One attachment of a sent message: a thumbnail or a chip that opens it, and "Add to knowledge". */
function AttachmentChip({ attachment }: { attachment: Attachment }) {
  const { t } = useTranslation();
  const [added, setAdded] = useState<"adding" | "added" | string | null>(null);
  const url = api.attachmentUrl(attachment.id);
  const openAttachment = useContext(AttachmentContext);
  const addToKnowledge = async () => {
    setAdded("adding");
    try {
      const bytes = await (await fetch(url)).blob();
      await uploadKnowledgeFile(bytes, attachment.name, () => {});
      setAdded("added");
    } catch (err) {
      setAdded((err as Error).message);
    }
  };
  return (
    <li data-testid="sent-attachment" data-kind={attachment.kind} className="flex items-center gap-1.5 rounded-lg border border-zinc-200 bg-white px-1.5 py-1 text-[12px] text-zinc-700">
      <button
        type="button"
        data-testid="open-attachment"
        className="flex min-w-0 items-center gap-1.5 text-left"
        data-tip={t("attachments.open")}
        onClick={() => openAttachment?.(attachment)}
      >
        {attachment.kind === "image" ? (
          <img src={url} alt={attachment.name} data-testid="attachment-thumbnail" className="size-12 shrink-0 rounded object-cover" />
        ) : (
          <Paperclip className="size-3.5 shrink-0 text-zinc-500" />
        )}
        <span className="min-w-0">
          <span className="block max-w-[160px] truncate font-medium">{attachment.name}</span>
          <span className="block text-[10.5px] text-zinc-500">{formatBytes(attachment.size)}</span>
        </span>
      </button>
      {attachment.kind !== "image" && (
        <button
          type="button"
          data-testid="attachment-to-knowledge"
          aria-label={t("attachments.addToKnowledgeName", { name: attachment.name })}
          data-tip={added && added !== "adding" && added !== "added" ? added : t("attachments.addToKnowledge")}
          disabled={added === "adding" || added === "added"}
          className="rounded p-0.5 text-zinc-500 hover:bg-zinc-100 disabled:opacity-60"
          onClick={() => void addToKnowledge()}
        >
          {added === "added" ? <Check className="size-3.5 text-emerald-600" /> : <BookPlus className={added && added !== "adding" ? "size-3.5 text-red-600" : "size-3.5"} />}
        </button>
      )}
    </li>
  );
}

/** The files and images a user message was sent with, under it. */
export function AttachmentChips({ attachments }: { attachments: Attachment[] }) {
  return (
    <ul data-testid="sent-attachments" className="flex flex-wrap justify-end gap-1.5">
      {attachments.map((a) => (
        <AttachmentChip key={a.id} attachment={a} />
      ))}
    </ul>
  );
}
