"use client";
/**
 * Monaco, bundled with the app (never from a CDN): @monaco-editor/react is pointed at the local
 * monaco-editor package, and its editor worker is built from it too. Client-only (loaded via
 * next/dynamic without SSR), since Monaco needs `window`.
 */
import Editor, { loader, type OnMount } from "@monaco-editor/react";
import * as monaco from "monaco-editor";

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker(workerId: string, label: string): Worker };
  }
}

window.MonacoEnvironment = {
  getWorker: () => new Worker(new URL("monaco-editor/editor/editor.worker.js", import.meta.url), { type: "module" }),
};
loader.config({ monaco });

export interface MonacoEditorProps {
  path: string;
  value: string;
  onChange: (value: string) => void;
  onSave: () => void;
}

function languageOf(path: string): string {
  if (/\.(md|markdown)$/i.test(path)) return "markdown";
  if (/\.json$/i.test(path)) return "json";
  if (/\.ya?ml$/i.test(path)) return "yaml";
  if (/\.py$/i.test(path)) return "python";
  if (/\.(ts|js)$/i.test(path)) return "typescript";
  return "plaintext";
}

export default function MonacoEditor({ path, value, onChange, onSave }: MonacoEditorProps) {
  const onMount: OnMount = (editor, m) => {
    // eslint-disable-next-line no-bitwise
    editor.addCommand(m.KeyMod.CtrlCmd | m.KeyCode.KeyS, () => onSaveRef.current());
  };
  onSaveRef.current = onSave;
  return (
    <Editor
      path={path}
      language={languageOf(path)}
      value={value}
      theme="vs"
      onChange={(v) => onChange(v ?? "")}
      onMount={onMount}
      loading={<div className="p-4 text-sm text-zinc-400">Loading editor…</div>}
      options={{
        minimap: { enabled: false },
        wordWrap: "on",
        fontSize: 13,
        lineNumbersMinChars: 3,
        scrollBeyondLastLine: false,
        renderWhitespace: "none",
        automaticLayout: true,
        padding: { top: 8 },
        // The classic textarea input: the one IMEs, screen readers and browser automation handle everywhere.
        editContext: false,
      }}
    />
  );
}

// The save command is bound once at mount; it calls whatever onSave is current.
const onSaveRef: { current: () => void } = { current: () => {} };
