"use client";
import type { Attachment } from "@mini-openclaw/protocol";
import { ExternalLink } from "lucide-react";
import { useEffect, useState } from "react";
import { api } from "@/lib/api";
import { formatBytes } from "@/i18n/format";
import { EditorFrame, MonacoEditor } from "./editor-frame";
import { useTranslation } from "react-i18next";

/**
 * An attachment of a message, read-only: an image as itself, a text file or document as the text the
 * model read of it (a PDF's pages marked). Its path is where the tools read it.
 */
export function AttachmentView({ attachment }: { attachment: Attachment }) {
  const { t } = useTranslation();
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const url = api.attachmentUrl(attachment.id);
  useEffect(() => {
    let cancelled = false;
    setText(null);
    setError(null);
    if (attachment.kind === "image") return;
    api.attachmentText(attachment.id).then(
      (reply) => !cancelled && setText(reply.text),
      (err: Error) => !cancelled && setError(err.message),
    );
    return () => {
      cancelled = true;
    };
  }, [attachment.id, attachment.kind]);
  const note = [...(attachment.kind === "document" ? [t("attachments.extractedText")] : []), formatBytes(attachment.size), t("attachments.readOnly")].join(" · ");
  return (
    <EditorFrame
      path={attachment.path ?? attachment.name}
      error={error}
      actions={
        <>
          <span className="text-xs text-zinc-500" data-testid="attachment-note">
            {note}
          </span>
          <a href={url} target="_blank" rel="noreferrer" className="text-zinc-500 hover:text-zinc-700" data-tip={t("attachments.openOriginal")} aria-label={t("attachments.openOriginalName", { name: attachment.name })}>
            <ExternalLink className="size-3.5" />
          </a>
        </>
      }
    >
      {attachment.kind === "image" ? (
        <div className="flex h-full items-center justify-center overflow-auto bg-zinc-50 p-4">
          <img src={url} alt={attachment.name} data-testid="attachment-image" className="max-h-full max-w-full rounded shadow-sm" />
        </div>
      ) : (
        text !== null && <MonacoEditor path={attachment.path ?? attachment.name} value={text} readOnly onChange={() => {}} onSave={() => {}} />
      )}
    </EditorFrame>
  );
}
