"use client";
import { TriangleAlert } from "lucide-react";
import { LoadingLine } from "@/components/ui/loading-line";
import dynamic from "next/dynamic";
import type { ReactNode } from "react";

/** Monaco, loaded on the client only (it needs `window`). */
export const MonacoEditor = dynamic(() => import("./monaco-editor"), {
  ssr: false,
  loading: () => <LoadingLine what="editor" />,
});

/**
 * What every file the Inspector opens sits in: the path with the file's own actions beside it, any
 * notice bars (a disk conflict), the error line, and the editor below.
 */
export function EditorFrame({ path, actions, notice, error, children }: { path: string; actions?: ReactNode; notice?: ReactNode; error: string | null; children: ReactNode }) {
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex h-10 shrink-0 items-center gap-2 border-b border-zinc-200/80 px-3">
        <span className="min-w-0 flex-1 truncate font-mono text-xs text-zinc-700" data-testid="editor-path">
          {path}
        </span>
        {actions}
      </div>
      {notice}
      {error && (
        <div className="flex items-start gap-2 border-b border-red-200 bg-red-50 px-3 py-2 text-xs text-red-800" data-testid="editor-error">
          <TriangleAlert className="mt-0.5 size-3.5 shrink-0" />
          {error}
        </div>
      )}
      <div className="min-h-0 flex-1" data-testid="editor">
        {children}
      </div>
    </div>
  );
}
