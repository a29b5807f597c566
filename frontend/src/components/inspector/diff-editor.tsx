"use client";
/** Monaco's diff editor, read-only, bundled like the editor (monaco-editor.tsx sets up the loader and worker). */
import { DiffEditor } from "@monaco-editor/react";
import { LoadingLine } from "@/components/ui/loading-line";
import type { editor } from "monaco-editor";
import { useEffect, useId, useRef } from "react";
import "./monaco-editor";
import { useTheme } from "@/lib/theme";
import { useTranslation } from "react-i18next";

/** `compact`: no line numbers, glyphs or overview ruler (a diff in a narrow card). */
export default function MonacoDiff({ path, before, after, compact = false }: { path: string; before: string; after: string; compact?: boolean }) {
  const { resolved } = useTheme();
  const { t } = useTranslation();
  // Each diff its own models, let go only after its editor is: the wrapper's own disposal order
  // (models first) makes Monaco log "TextModel got disposed before DiffEditorWidget model got reset".
  const id = useId();
  const models = useRef<editor.IDiffEditorModel | null>(null);
  useEffect(
    () => () => {
      const held = models.current;
      setTimeout(() => {
        held?.original.dispose();
        held?.modified.dispose();
      }, 0);
    },
    [],
  );
  return (
    <DiffEditor
      original={before}
      modified={after}
      originalModelPath={`before://${id}/${path}`}
      modifiedModelPath={`after://${id}/${path}`}
      keepCurrentOriginalModel
      keepCurrentModifiedModel
      onMount={(diff) => {
        models.current = diff.getModel();
        // Each side's input named (the construction options' labels do not reach them).
        diff.getOriginalEditor().updateOptions({ ariaLabel: t("editor.diffBefore", { path }) });
        diff.getModifiedEditor().updateOptions({ ariaLabel: t("editor.diffAfter", { path }) });
      }}
      theme={resolved === "dark" ? "vs-dark" : "vs"}
      loading={<LoadingLine what="diff" />}
      options={{
        readOnly: true,
        originalEditable: false,
        // The classic textarea input, as the editor's (screen readers handle it everywhere).
        editContext: false,
        renderSideBySide: false,
        minimap: { enabled: false },
        wordWrap: "on",
        fontSize: compact ? 12 : 13,
        automaticLayout: true,
        scrollBeyondLastLine: false,
        renderFinalNewline: "on",
        ...(compact ? { lineNumbers: "off" as const, glyphMargin: false, folding: false, lineDecorationsWidth: 4, renderOverviewRuler: false, overviewRulerLanes: 0 } : {}),
      }}
    />
  );
}
