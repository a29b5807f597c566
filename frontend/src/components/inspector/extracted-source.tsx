"use client";
import type { KnowledgeSourceReply } from "@mini-openclaw/protocol";
import { useTranslation } from "react-i18next";
import { useEffect, useState } from "react";
import { api } from "@/lib/api";
import { EditorFrame, MonacoEditor } from "./editor-frame";

/** Knowledge documents that are not text: the Inspector shows the text the index read from them. */
export const EXTRACTED_SOURCE = /^knowledge\/.+\.(pdf|docx|pptx|xlsx|epub|html?)$/i;

/**
 * A PDF, Word, PowerPoint, Excel, EPUB or HTML document as its extracted text, read-only. A cited
 * page or slide (it travels as the line) is turned into the line where that page starts.
 */
export function ExtractedSource({ path, reveal }: { path: string; reveal?: { line: number; nonce: number } | null }) {
  const { t } = useTranslation();
  const [source, setSource] = useState<KnowledgeSourceReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    setSource(null);
    setError(null);
    api.knowledgeSource(path).then(
      (reply) => !cancelled && setSource(reply),
      (err: Error) => !cancelled && setError(err.message),
    );
    return () => {
      cancelled = true;
    };
  }, [path]);
  const line = source?.pages && reveal ? (source.pages.find((p) => p.page === reveal.line)?.line ?? 1) : reveal?.line;
  const note = [source?.page_word ? t(`attachments.extractedBy.${source.page_word}`) : t("attachments.extractedText"), t("attachments.readOnly")].join(" · ");
  return (
    <EditorFrame path={path} error={error} actions={<span className="text-xs text-zinc-500" data-testid="extracted-note">{note}</span>}>
      {source && (
        <MonacoEditor
          path={path}
          value={source.text}
          readOnly
          onChange={() => {}}
          onSave={() => {}}
          reveal={reveal && line !== undefined ? { line, nonce: reveal.nonce } : null}
        />
      )}
    </EditorFrame>
  );
}
