"use client";
/**
 * Monaco, bundled with the app (never from a CDN): @monaco-editor/react is pointed at the local
 * monaco-editor package, and its editor worker is built from it too. Client-only (loaded via
 * next/dynamic without SSR), since Monaco needs `window`.
 */
import Editor, { loader, type OnMount } from "@monaco-editor/react";
import { LoadingLine } from "@/components/ui/loading-line";
import * as monaco from "monaco-editor";
import { useEffect, useState } from "react";
import { SCHEMA_FILES } from "@mini-openclaw/protocol";
import { api } from "@/lib/api";
import { useTheme } from "@/lib/theme";

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker(workerId: string, label: string): Worker };
  }
}

// Each language service runs in its own worker: JSON's validates and completes the settings files as they are
// typed (without it, Monaco asks the plain editor worker and logs "Missing requestHandler" on every change).
window.MonacoEnvironment = {
  getWorker: (_id, label) =>
    label === "json"
      ? new Worker(new URL("monaco-editor/language/json/json.worker.js", import.meta.url), { type: "module" })
      : new Worker(new URL("monaco-editor/editor/editor.worker.js", import.meta.url), { type: "module" }),
};
loader.config({ monaco });

/**
 * A settings file's JSON Schema, from the server (the same schema it checks the file with), given to
 * Monaco's JSON language service for that file: mistakes are marked as they are typed, keys complete.
 */
const schemasAsked = new Set<string>();
function useSettingsSchema(path: string) {
  useEffect(() => {
    if (!(SCHEMA_FILES as readonly string[]).includes(path) || schemasAsked.has(path)) return;
    schemasAsked.add(path);
    api.fileSchema(path).then(
      (schema) => {
        const current = monaco.json.jsonDefaults.diagnosticsOptions;
        const others = (current.schemas ?? []).filter((s) => s.uri !== `mini-openclaw:/schema/${path}`);
        monaco.json.jsonDefaults.setDiagnosticsOptions({ ...current, validate: true, schemas: [...others, { uri: `mini-openclaw:/schema/${path}`, fileMatch: [path, `*/${path}`], schema }] });
      },
      () => schemasAsked.delete(path),
    );
  }, [path]);
}

export interface MonacoEditorProps {
  path: string;
  value: string;
  onChange: (value: string) => void;
  onSave: () => void;
  /** A line to scroll to and mark (a citation was opened). */
  reveal?: { line: number; nonce: number } | null;
  readOnly?: boolean;
}

function languageOf(path: string): string {
  if (/\.(md|markdown)$/i.test(path)) return "markdown";
  if (/\.json$/i.test(path)) return "json";
  if (/\.ya?ml$/i.test(path)) return "yaml";
  if (/\.py$/i.test(path)) return "python";
  if (/\.(ts|js)$/i.test(path)) return "typescript";
  return "plaintext";
}

export default function MonacoEditor({ path, value, onChange, onSave, reveal, readOnly = false }: MonacoEditorProps) {
  useSettingsSchema(path);
  const [mounted, setMounted] = useState<{ editor: Parameters<OnMount>[0]; monaco: Parameters<OnMount>[1] } | null>(null);
  const onMount: OnMount = (editor, m) => {
    editor.addCommand(m.KeyMod.CtrlCmd | m.KeyCode.KeyS, () => onSaveRef.current());
    setMounted({ editor, monaco: m });
  };
  // A cited line: scrolled to the middle and marked until another line is.
  // The same line asked again (a new nonce) is revealed and marked again.
  const revealLine = reveal?.line;
  const revealNonce = reveal?.nonce;
  useEffect(() => {
    if (!mounted || revealLine === undefined) return;
    const { editor, monaco } = mounted;
    const line = Math.min(Math.max(1, revealLine), editor.getModel()?.getLineCount() ?? 1);
    editor.revealLineInCenter(line);
    editor.setPosition({ lineNumber: line, column: 1 });
    const marks = editor.createDecorationsCollection([
      { range: new monaco.Range(line, 1, line, 1), options: { isWholeLine: true, className: "cited-line", linesDecorationsClassName: "cited-line-gutter" } },
    ]);
    return () => marks.clear();
  }, [mounted, revealLine, revealNonce]);
  onSaveRef.current = onSave;
  return (
    <Editor
      path={path}
      language={languageOf(path)}
      value={value}
      theme={useTheme().resolved === "dark" ? "vs-dark" : "vs"}
      onChange={(v) => onChange(v ?? "")}
      onMount={onMount}
      loading={<LoadingLine what="editor" />}
      options={{
        minimap: { enabled: false },
        readOnly,
        wordWrap: "on",
        fontSize: 13,
        lineNumbersMinChars: 3,
        // The line after a final newline is numbered in full colour: Monaco's dimmed number fails contrast (axe).
        renderFinalNewline: "on",
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
