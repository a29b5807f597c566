"use client";
import { Circle, Save } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/api";
import { EditorFrame, MonacoEditor } from "./editor-frame";
import { useTranslation } from "react-i18next";

interface Draft {
  saved: string;
  text: string;
}

/**
 * Opens a file of the data root in Monaco. Edits are kept per file until saved (switching files
 * loses nothing); a failed save keeps the edit and shows the server's reason.
 */
export function FileEditor({
  path,
  drafts,
  onSaved,
  diskVersion,
  reveal,
}: {
  path: string;
  drafts: Map<string, Draft>;
  onSaved: (path: string) => void;
  diskVersion: number;
  reveal?: { line: number; nonce: number } | null;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft | null>(drafts.get(path) ?? null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  /** Disk content that differs from what was loaded while there are unsaved edits: offered, never forced. */
  const [onDisk, setOnDisk] = useState<string | null>(null);

  useEffect(() => {
    if (diskVersion === 0) return;
    let cancelled = false;
    api.readFile(path).then(
      (file) => {
        const current = drafts.get(path);
        if (cancelled || !current || file.content === current.saved) return; // our own save, or nothing new
        if (current.text === current.saved) {
          const fresh = { saved: file.content, text: file.content };
          drafts.set(path, fresh);
          setDraft(fresh);
        } else {
          setOnDisk(file.content);
        }
      },
      () => {},
    );
    return () => {
      cancelled = true;
    };
  }, [diskVersion, path, drafts]);

  const takeDiskVersion = () => {
    if (onDisk === null) return;
    const fresh = { saved: onDisk, text: onDisk };
    drafts.set(path, fresh);
    setDraft(fresh);
    setOnDisk(null);
  };
  const keepMine = () => {
    const current = drafts.get(path);
    if (current && onDisk !== null) {
      // Saving now would overwrite the disk version knowingly: the edit is measured against it.
      const next = { saved: onDisk, text: current.text };
      drafts.set(path, next);
      setDraft(next);
    }
    setOnDisk(null);
  };

  useEffect(() => {
    setError(null);
    const kept = drafts.get(path);
    if (kept) return setDraft(kept);
    setDraft(null);
    let cancelled = false;
    api.readFile(path).then(
      (file) => {
        if (cancelled) return;
        const fresh = { saved: file.content, text: file.content };
        drafts.set(path, fresh);
        setDraft(fresh);
      },
      (err: Error) => !cancelled && setError(err.message),
    );
    return () => {
      cancelled = true;
    };
  }, [path, drafts]);

  const dirty = draft !== null && draft.text !== draft.saved;

  const save = useCallback(async () => {
    const current = drafts.get(path);
    if (!current || current.text === current.saved) return;
    setSaving(true);
    try {
      await api.saveFile(path, current.text);
      const next = { saved: current.text, text: current.text };
      drafts.set(path, next);
      setDraft(next);
      setError(null);
      onSaved(path);
    } catch (err) {
      setError(t("editor.notSaved", { detail: (err as Error).message }));
    } finally {
      setSaving(false);
    }
  }, [path, drafts, onSaved, t]);

  return (
    <EditorFrame
      path={path}
      error={error}
      actions={
        <>
          {dirty && (
            <span className="flex items-center gap-1 text-xs text-amber-700" data-testid="dirty-marker">
              <Circle className="size-2 fill-current" />
              {t("editor.unsaved")}
            </span>
          )}
          <Button size="sm" onClick={save} disabled={!dirty || saving} data-testid="save" data-tip={t("editor.saveTip")}>
            <Save />
            {saving ? t("editor.saving") : t("common.save")}
          </Button>
        </>
      }
      notice={
        onDisk !== null && (
          <div className="flex items-center gap-2 border-b border-amber-200 bg-amber-50 px-3 py-1.5 text-xs text-amber-900" data-testid="disk-conflict">
            <span className="flex-1">{t("editor.changedOnDisk")}</span>
            <Button size="sm" variant="outline" onClick={takeDiskVersion} data-testid="take-disk">
              {t("editor.loadDisk")}
            </Button>
            <Button size="sm" variant="ghost" onClick={keepMine}>
              {t("editor.keepMine")}
            </Button>
          </div>
        )
      }
    >
      {draft && (
        <MonacoEditor
          reveal={reveal}
          path={path}
          value={draft.text}
          onChange={(text) => {
            const next = { ...draft, text };
            drafts.set(path, next);
            setDraft(next);
          }}
          onSave={save}
        />
      )}
    </EditorFrame>
  );
}
