"use client";
/** Monaco's diff editor, read-only, bundled like the editor (monaco-editor.tsx sets up the loader and worker). */
import { DiffEditor } from "@monaco-editor/react";
import "./monaco-editor";
import { useTheme } from "@/lib/theme";

export default function MonacoDiff({ path, before, after }: { path: string; before: string; after: string }) {
  const { resolved } = useTheme();
  return (
    <DiffEditor
      original={before}
      modified={after}
      originalModelPath={`before://${path}`}
      modifiedModelPath={`after://${path}`}
      theme={resolved === "dark" ? "vs-dark" : "vs"}
      loading={<div className="p-4 text-sm text-zinc-500">Loading diff…</div>}
      options={{ readOnly: true, originalEditable: false, renderSideBySide: false, minimap: { enabled: false }, wordWrap: "on", fontSize: 13, automaticLayout: true, scrollBeyondLastLine: false }}
    />
  );
}
