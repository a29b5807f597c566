"use client";
import type { TaskRun } from "@mini-openclaw/protocol";
import { useQuery } from "@tanstack/react-query";
import { ChevronDown, ChevronRight } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { api } from "@/lib/api";
import { formatDateTime } from "@/i18n/format";
import { useTranslation } from "react-i18next";

export const OUTCOME_BADGE: Record<TaskRun["outcome"], "success" | "warning" | "danger" | "muted" | "default"> = {
  running: "default",
  done: "success",
  quiet: "muted",
  failed: "danger",
  stopped: "warning",
  skipped: "muted",
  aborted: "warning",
};

/** How a run ended; with a session, a click opens it. */
export function Outcome({ run, onOpenSession }: { run: TaskRun; onOpenSession?: (id: string) => void }) {
  const { t } = useTranslation();
  const badge = (
    <Badge variant={OUTCOME_BADGE[run.outcome]} data-testid="task-outcome" data-outcome={run.outcome} data-tip={run.detail}>
      {t(`tasks.outcome.${run.outcome}`)}
    </Badge>
  );
  if (!run.session_id || !onOpenSession) return badge;
  const id = run.session_id;
  return (
    <button type="button" className="rounded-full hover:ring-2 hover:ring-klein/30" onClick={() => onOpenSession(id)} data-testid="task-outcome-open">
      {badge}
    </button>
  );
}

/** A task's (or the heartbeat's) runs, newest first, each opening its session. */
export function RunHistory({ taskId, onOpenSession }: { taskId: string; onOpenSession: (id: string) => void }) {
  const { t } = useTranslation();
  const { data: runs, error } = useQuery({ queryKey: ["task-runs", taskId], queryFn: () => api.taskRuns(taskId) });
  if (error) return <p className="text-red-700">{error.message}</p>;
  if (!runs) return <p className="text-zinc-500">{t("common.loading")}</p>;
  if (runs.length === 0) return <p className="text-zinc-500" data-testid="task-no-runs">{t("tasks.noRuns")}</p>;
  return (
    <ul className="space-y-0.5" data-testid="task-runs">
      {runs.slice(0, 20).map((run) => (
        <li key={run.id} className="flex items-center gap-1.5" data-testid="task-run">
          <Outcome run={run} />
          {run.session_id ? (
            <button type="button" className="min-w-0 truncate text-klein hover:underline" onClick={() => onOpenSession(run.session_id!)} data-testid="task-run-session">
              {formatDateTime(run.started_at, true)}
            </button>
          ) : (
            <span className="min-w-0 truncate text-zinc-600">{formatDateTime(run.started_at, true)}</span>
          )}
          {run.trigger !== "schedule" && <span className="text-[10.5px] text-zinc-500">{run.trigger === "manual" ? t("tasks.trigger.manual") : t("tasks.trigger.catchUp")}</span>}
        </li>
      ))}
    </ul>
  );
}


/** A card's row of actions (`children`) with the toggle that shows its runs under it. */
export function ActionsWithRuns({ taskId, onOpenSession, toggleTestId, children }: { taskId: string; onOpenSession: (id: string) => void; toggleTestId?: string; children: ReactNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <div className="mt-1 flex flex-wrap items-center gap-0.5">
        {children}
        <button type="button" className="ml-auto flex items-center gap-0.5 text-zinc-500 hover:text-zinc-700" onClick={() => setOpen(!open)} data-testid={toggleTestId} aria-expanded={open}>
          {open ? <ChevronDown className="size-3.5" /> : <ChevronRight className="size-3.5" />} {t("tasks.runs")}
        </button>
      </div>
      {open && (
        <div className="mt-1 border-t border-zinc-100 pt-1">
          <RunHistory taskId={taskId} onOpenSession={onOpenSession} />
        </div>
      )}
    </>
  );
}
