"use client";
import type { ChangeDiffReply } from "@mini-openclaw/protocol";
import { LoadingLine } from "@/components/ui/loading-line";
import dynamic from "next/dynamic";
import { RotateCcw } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/badge";
import { ApiError, api } from "@/lib/api";
import { EditorFrame, MonacoEditor } from "./editor-frame";
import { useTranslation } from "react-i18next";

const MonacoDiff = dynamic(() => import("./diff-editor"), { ssr: false, loading: () => <LoadingLine what="diff" /> });

export interface OpenChange {
  change: string;
  path: string;
}

/**
 * What one call did to one file: before and after in Monaco's diff editor, and Revert (the file as it
 * was before the call). A file changed since the call asks before it is overwritten.
 */
export function ChangeDiff({ open, onReverted }: { open: OpenChange; onReverted: (path: string) => void }) {
  const { t } = useTranslation();
  const [diff, setDiff] = useState<ChangeDiffReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    setDiff(null);
    setError(null);
    setConflict(null);
    setDone(null);
    api.changeDiff(open.change, open.path).then(setDiff, (err: Error) => setError(err.message));
  }, [open.change, open.path]);

  const revert = async (force: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const reply = await api.revertChange(open.change, open.path, force);
      setConflict(null);
      setDone(reply.action === "removed" ? t("changes.revertedRemoved") : t("changes.revertedRestored"));
      onReverted(open.path);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409 && !force) setConflict(err.message);
      else setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <EditorFrame
      path={open.path}
      error={error}
      actions={
        <>
          {diff && <Badge variant={diff.kind === "deleted" ? "danger" : diff.kind === "created" ? "success" : "muted"}>{t(`changes.kind.${diff.kind}`)}</Badge>}
          <Button size="sm" variant="ghost" disabled={busy || done !== null} onClick={() => void revert(false)} data-testid="revert-file">
            <RotateCcw /> {t("changes.revert")}
          </Button>
        </>
      }
      notice={
        <>
          {conflict && (
            <div className="flex items-center gap-2 border-b border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900" data-testid="revert-conflict">
              <span className="flex-1">{conflict}</span>
              <Button size="sm" variant="ghost" onClick={() => void revert(true)}>
                {t("changes.revertAnyway")}
              </Button>
            </div>
          )}
          {diff?.current_differs && !conflict && !done && <div className="border-b border-zinc-200 px-3 py-1.5 text-[11px] text-zinc-500">{t("changes.changedSince")}</div>}
          {done && (
            <div className="border-b border-emerald-200 bg-emerald-50 px-3 py-1.5 text-xs text-emerald-800" data-testid="revert-done">
              {done}
            </div>
          )}
        </>
      }
    >
      {diff && diff.before !== null && diff.after !== null ? (
        <MonacoDiff path={open.path} before={diff.before} after={diff.after} />
      ) : diff && (diff.after ?? diff.before) !== null ? (
        // A file the call created (or deleted) has one side: shown whole, not as a diff against an empty line.
        <MonacoEditor path={`${open.change}/${open.path}`} value={(diff.after ?? diff.before)!} readOnly onChange={() => {}} onSave={() => {}} />
      ) : diff ? (
        <div className="p-4 text-sm text-zinc-500">{t("changes.notText")}</div>
      ) : null}
    </EditorFrame>
  );
}
