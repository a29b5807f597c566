"use client";
import type { KnowledgeSourceReply } from "@mini-openclaw/protocol";
import { TriangleAlert } from "lucide-react";
import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import { api } from "@/lib/api";

const MonacoEditor = dynamic(() => import("./monaco-editor"), {
  ssr: false,
  loading: () => <div className="p-4 text-sm text-zinc-400">Loading editor…</div>,
});

/** Knowledge documents that are not text: the Inspector shows the text the index read from them. */
export const EXTRACTED_SOURCE = /^knowledge\/.+\.(pdf|docx|pptx|xlsx|epub|html?)$/i;

/**
 * A PDF, Word, PowerPoint, Excel, EPUB or HTML document as its extracted text, read-only. A cited
 * page or slide (it travels as the line) is turned into the line where that page starts.
 */
export function ExtractedSource({ path, reveal }: { path: string; reveal?: { line: number; nonce: number } | null }) {
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
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex h-10 shrink-0 items-center gap-2 border-b border-zinc-200/80 px-3">
        <span className="min-w-0 flex-1 truncate font-mono text-xs text-zinc-700" data-testid="editor-path">
          {path}
        </span>
        <span className="text-xs text-zinc-400" data-testid="extracted-note">
          {source?.page_word ? `extracted text, by ${source.page_word} · read-only` : "extracted text · read-only"}
        </span>
      </div>
      {error && (
        <div className="flex items-start gap-2 border-b border-red-200 bg-red-50 px-3 py-2 text-xs text-red-800" data-testid="editor-error">
          <TriangleAlert className="mt-0.5 size-3.5 shrink-0" />
          {error}
        </div>
      )}
      <div className="min-h-0 flex-1" data-testid="editor">
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
      </div>
    </div>
  );
}
