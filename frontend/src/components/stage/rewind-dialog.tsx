"use client";
import { DialogHeader } from "../ui/dialog-header";
import type { CallChanges, RewindReply } from "@mini-openclaw/protocol";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ApiError, api } from "@/lib/api";
import { NotTracked } from "./changed-files";
import { Trans, useTranslation } from "react-i18next";

interface RewindDialogProps {
  sessionId: string;
  /** The turn to go back to before; null: closed. */
  turn: number | null;
  /** The turns of the current branch from that one on (whose file changes are undone). */
  turnsFrom: number[];
  onClose: () => void;
  onDone: (reply: RewindReply) => void;
}

/**
 * Rewind to before a turn: the files that turn and the later ones changed (listed first), the
 * conversation, or both. Files changed since by someone else are named and never overwritten unless
 * the user says so.
 */
export function RewindDialog({ sessionId, turn, turnsFrom, onClose, onDone }: RewindDialogProps) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [calls, setCalls] = useState<CallChanges[] | null>(null);
  const [files, setFiles] = useState(true);
  const [conversation, setConversation] = useState(true);
  const [conflicts, setConflicts] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (turn === null) return dialog.current?.close();
    dialog.current?.showModal();
    setCalls(null);
    setConflicts(null);
    setError(null);
    api.changes(sessionId).then((reply) => setCalls(reply.calls.filter((c) => turnsFrom.includes(c.turn))), (err: Error) => setError(err.message));
  }, [turn, sessionId, turnsFrom]);

  // Per path, what undoing does: a file the turns created goes, the others come back.
  const paths = new Map<string, "removed" | "restored">();
  for (const call of calls ?? []) for (const f of call.files) if (!paths.has(f.path)) paths.set(f.path, f.kind === "created" ? "removed" : "restored");
  const untracked = [...new Set((calls ?? []).flatMap((c) => c.untracked ?? []))];

  const run = async (onConflict: "fail" | "skip" | "overwrite") => {
    if (turn === null) return;
    setBusy(true);
    setError(null);
    try {
      onDone(await api.rewind(sessionId, { turn, files, conversation, on_conflict: onConflict }));
    } catch (err) {
      const listed = err instanceof ApiError && err.status === 409 ? (err.body as { conflicts?: string[] } | null)?.conflicts : undefined;
      if (listed) setConflicts(listed);
      else setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog ref={dialog} onClose={onClose} data-testid="rewind-dialog" className="m-auto w-[480px] max-w-[95vw] rounded-xl border border-zinc-200 p-0 shadow-2xl backdrop:bg-zinc-900/30">
      <div className="space-y-3 p-5 text-sm">
        <DialogHeader title={t("rewind.title")} onClose={onClose} />
        <label className="flex items-start gap-2">
          <input type="checkbox" className="mt-0.5 accent-klein" checked={files} onChange={(e) => setFiles(e.target.checked)} data-testid="rewind-files" />
          <span>
            <Trans i18nKey="rewind.files" components={{ b: <span className="font-medium" /> }} />
          </span>
        </label>
        {files && (
          <ul className="max-h-40 overflow-auto rounded-md border border-zinc-200 px-2 py-1 font-mono text-[12px]" data-testid="rewind-list">
            {calls === null && <li className="text-zinc-500">{t("common.loading")}</li>}
            {calls !== null && paths.size === 0 && <li className="font-sans text-zinc-500">{t("rewind.noFiles")}</li>}
            {[...paths].map(([path, action]) => (
              <li key={path} className="flex gap-2">
                <span className="w-16 shrink-0 font-sans text-[11px] text-zinc-500">{t(`rewind.action.${action}`)}</span>
                <span className="truncate">{path}</span>
              </li>
            ))}
          </ul>
        )}
        {files && <NotTracked lines={untracked} />}
        <label className="flex items-start gap-2">
          <input type="checkbox" className="mt-0.5 accent-klein" checked={conversation} onChange={(e) => setConversation(e.target.checked)} data-testid="rewind-conversation" />
          <span>
            <Trans i18nKey="rewind.conversation" components={{ b: <span className="font-medium" /> }} />
          </span>
        </label>
        {conflicts && (
          <div className="space-y-2 rounded-md border border-amber-200 bg-amber-50 p-2 text-xs text-amber-900" data-testid="rewind-conflicts">
            <div>{t("rewind.conflicts")}</div>
            <ul className="font-mono">
              {conflicts.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
            <div className="flex gap-2">
              <Button size="sm" variant="ghost" disabled={busy} onClick={() => void run("skip")} data-testid="rewind-skip">
                {t("rewind.skip")}
              </Button>
              <Button size="sm" variant="ghost" disabled={busy} onClick={() => void run("overwrite")}>
                {t("rewind.overwrite")}
              </Button>
            </div>
          </div>
        )}
        {error && <div className="text-xs text-red-700">{error}</div>}
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button disabled={busy || (!files && !conversation) || conflicts !== null} onClick={() => void run("fail")} data-testid="rewind-confirm">
            {t("rewind.confirm")}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
