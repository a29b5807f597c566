"use client";
import { Badge } from "@/components/ui/badge";
import { useTasks } from "@/lib/server-state";
import { BrainCircuit, HeartPulse } from "lucide-react";
import { useTranslation } from "react-i18next";
import { nextRunText } from "@/components/pages/tasks-view";
import { OUTCOME_BADGE } from "@/components/pages/run-outcome";

const ROW = "block w-full rounded-md px-2 py-1.5 text-left text-xs hover:bg-zinc-50";

/** The Sidebar's list while the Tasks page shows: each task, the heartbeat and the consolidation, going to its card there. */
export function TaskList({ onGo }: { onGo: (anchor: string) => void }) {
  const { t } = useTranslation();
  const reply = useTasks().data;
  if (!reply) return <div className="p-2 text-xs text-zinc-500">{t("tasks.loading")}</div>;
  return (
    <div className="space-y-0.5" data-testid="task-list">
      <button type="button" className={ROW} onClick={() => onGo("heartbeat")} data-testid="task-list-row">
        <span className="flex items-center gap-1.5 font-medium text-zinc-800">
          <HeartPulse className="size-3.5 text-klein" />
          {t("tasks.heartbeat")}
          {!reply.heartbeat.enabled && <span className="font-normal text-zinc-500">· {t("tasks.disabled")}</span>}
        </span>
      </button>
      <button type="button" className={ROW} onClick={() => onGo("consolidation")} data-testid="task-list-consolidation">
        <span className="flex items-center gap-1.5 font-medium text-zinc-800">
          <BrainCircuit className="size-3.5 text-klein" />
          {t("consolidation.title")}
          {!reply.consolidation.enabled && <span className="font-normal text-zinc-500">· {t("tasks.disabled")}</span>}
        </span>
      </button>
      {reply.tasks.map((task) => (
        <button key={task.id} type="button" className={ROW} onClick={() => onGo(`task-${task.id}`)} data-testid="task-list-row" data-task={task.id}>
          <span className="flex items-center gap-1.5">
            <span className="min-w-0 flex-1 truncate font-medium text-zinc-800">{task.name}</span>
            {task.last_run && <Badge variant={OUTCOME_BADGE[task.last_run.outcome]}>{t(`tasks.outcome.${task.last_run.outcome}`)}</Badge>}
          </span>
          <span className="block truncate text-[11px] text-zinc-500">
            {nextRunText(task)}
          </span>
        </button>
      ))}
      {reply.tasks.length === 0 && <p className="px-2 py-1 text-xs text-zinc-500">{t("tasks.listEmpty")}</p>}
    </div>
  );
}
