"use client";
import { useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api";
import { keys } from "@/lib/server-state";
import { cn } from "@/lib/utils";
import type { OpenChange } from "./change-diff";
import { useTranslation } from "react-i18next";

const KIND_MARK = { created: "A", modified: "M", deleted: "D" } as const;

/**
 * Every file the session's tool calls changed, by turn and call, newest first: a click opens that
 * change's diff below (the same as a file on a tool card).
 */
export function ChangesList({ sessionId, open, onOpen }: { sessionId: string; open: OpenChange | null; onOpen: (change: string, path: string) => void }) {
  const { t } = useTranslation();
  const { data, error } = useQuery({ queryKey: keys.changes(sessionId), queryFn: () => api.changes(sessionId) });
  if (error) return <div className="p-3 text-xs text-red-700">{error.message}</div>;
  if (!data) return <div className="p-3 text-xs text-zinc-500">{t("changes.loading")}</div>;
  if (data.calls.length === 0) return <div className="p-3 text-xs text-zinc-500" data-testid="changes-empty">{t("changes.none")}</div>;
  return (
    <ul className="max-h-[40%] shrink-0 space-y-1 overflow-y-auto border-b border-zinc-200/80 px-2 py-1.5 text-[12px]" data-testid="changes-list">
      {[...data.calls].reverse().map((call) => (
        <li key={call.change}>
          <div className="px-1 text-[10.5px] font-semibold uppercase tracking-wide text-zinc-500">
            {t("changes.turnCall", { turn: call.turn, tool: call.tool })}
          </div>
          {call.files.map((file) => (
            <button
              key={file.path}
              type="button"
              data-testid="changes-item"
              data-path={file.path}
              data-reverted={file.reverted ? "true" : undefined}
              onClick={() => onOpen(call.change, file.path)}
              className={cn(
                "flex w-full items-center gap-1.5 rounded px-1.5 py-0.5 text-left font-mono",
                open?.change === call.change && open.path === file.path ? "bg-klein-50 text-klein" : "text-zinc-700 hover:bg-zinc-50",
              )}
            >
              <span className="w-3 shrink-0 text-zinc-500" aria-label={t(`changes.kind.${file.kind}`)}>
                {KIND_MARK[file.kind]}
              </span>
              <span className={cn("truncate", file.reverted && "text-zinc-500 line-through")}>{file.path}</span>
              {file.reverted && <span className="ml-auto shrink-0 font-sans text-[10.5px] text-zinc-500" data-testid="change-reverted">{t("changes.reverted")}</span>}
            </button>
          ))}
        </li>
      ))}
    </ul>
  );
}
