"use client";
import type { ChangedFile } from "@mini-openclaw/protocol";
import { FileDiff } from "lucide-react";
import { useQuery } from "@tanstack/react-query";
import { createContext, useContext } from "react";
import { api } from "@/lib/api";
import { keys } from "@/lib/server-state";
import { cn } from "@/lib/utils";
import { useTranslation } from "react-i18next";

/** Opens one file of one call's changes in the Inspector (a diff with Revert). */
export const ChangeContext = createContext<((change: string, path: string) => void) | null>(null);

const KIND_STYLE: Record<ChangedFile["kind"], string> = {
  created: "text-emerald-700",
  modified: "text-amber-700",
  deleted: "text-red-700",
};

/** What a call may have changed that the record cannot know: said, never left out in silence. */
export function NotTracked({ lines }: { lines: string[] }) {
  const { t } = useTranslation();
  if (lines.length === 0) return null;
  return (
    <ul className="mt-1 space-y-0.5 rounded bg-amber-50 px-2 py-1 text-[11px] text-amber-900" data-testid="not-tracked">
      {lines.map((line) => (
        <li key={line} className="break-all">
          <span className="font-medium">{t("changes.notTracked")}</span> {line}
        </li>
      ))}
    </ul>
  );
}

/** The files a tool call changed, under its card: each opens its diff. */
export function ChangedFiles({ change, files, more = 0, untracked = [] }: { change: string; files: ChangedFile[]; more?: number; untracked?: string[] }) {
  const openChange = useContext(ChangeContext);
  const { t } = useTranslation();
  // Which of these files are back to their state before the call (the session's change list says; one
  // fetch per session, shared with the Inspector's Changes tab, read again when a revert or a turn ends).
  const sessionId = change.split("~")[0];
  const { data } = useQuery({ queryKey: keys.changes(sessionId), queryFn: () => api.changes(sessionId) });
  const reverted = new Set(data?.calls.find((c) => c.change === change)?.files.filter((f) => f.reverted).map((f) => f.path));
  return (
    <div className="border-t border-zinc-100 px-3 py-1.5" data-testid="changed-files">
      <div className="pb-0.5 text-[11px] text-zinc-500">{t("changes.changedFiles", { count: files.length + more })}</div>
      <ul className="space-y-0.5">
        {files.map((file) => (
          <li key={file.path}>
            <button
              type="button"
              data-testid="changed-file"
              data-path={file.path}
              data-kind={file.kind}
              data-reverted={reverted.has(file.path) ? "true" : undefined}
              disabled={!openChange}
              onClick={() => openChange?.(change, file.path)}
              className="flex w-full items-center gap-1.5 rounded px-1 text-left font-mono text-[12px] text-zinc-700 hover:bg-zinc-50"
              // Named by what it shows (kind, path, reverted): a label of other words would hide them from a screen reader.
              data-tip={t("changes.showDiff")}
            >
              <FileDiff className="size-3 shrink-0 text-zinc-500" />
              <span className={cn("w-16 shrink-0 font-sans text-[11px]", KIND_STYLE[file.kind])}>{t(`changes.kind.${file.kind}`)}</span>
              <span className={cn("truncate", reverted.has(file.path) && "text-zinc-500 line-through")}>{file.path}</span>
              {reverted.has(file.path) && <span className="shrink-0 font-sans text-[10px] text-zinc-500" data-testid="change-reverted">{t("changes.reverted")}</span>}
              {!file.restorable && <span className="shrink-0 font-sans text-[10px] text-zinc-500" data-tip={file.reason}>{t("changes.notRestorable")}</span>}
            </button>
          </li>
        ))}
      </ul>
      {more > 0 && (
        <div className="px-1 text-[11px] text-zinc-500" data-testid="changed-more">
          {t("changes.more", { count: more })}
        </div>
      )}
      <NotTracked lines={untracked} />
    </div>
  );
}
