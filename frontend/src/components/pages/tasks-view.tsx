"use client";
import type { Heartbeat, SessionSummary, Task } from "@mini-openclaw/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { Bot, FileCog, HeartPulse, Pencil, Play, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/api";
import { askNotificationPermission } from "@/lib/notifications";
import { hasSeconds, scheduleInWords } from "@/lib/schedule-words";
import { formatDateTime } from "@/i18n/format";
import { i18n } from "@/i18n/language";
import { keys, useTasks } from "@/lib/server-state";
import { WarningLine } from "@/components/ui/problem-card";
import { TaskForm } from "./task-form";
import { ConsolidationCard } from "./consolidation-card";
import { ActionsWithRuns, Outcome } from "./run-outcome";
import { useTranslation } from "react-i18next";
import { ChecklistChange } from "./checklist-change";

/** When a task runs next, in the reader's time; or why it does not. */
export function nextRunText(task: Task): string {
  if (task.next_run) return `${i18n.t("tasks.next")} ${formatDateTime(task.next_run, hasSeconds(task.schedule))}`;
  return task.enabled ? i18n.t("tasks.noMoreRuns") : i18n.t("tasks.disabled");
}

function TaskCard({ task, zone, onEdit, onOpenSession, act }: { task: Task; zone: string; onEdit: () => void; onOpenSession: (id: string) => void; act: (what: () => Promise<unknown>) => void }) {
  const { t } = useTranslation();
  return (
    <section className="scroll-mt-4 rounded-lg border border-zinc-200 px-2.5 py-2 text-xs" data-anchor={`task-${task.id}`} data-testid="task-card" data-task={task.id} data-enabled={task.enabled}>
      <div className="flex items-center gap-1.5">
        <input
          type="checkbox"
          role="switch"
          aria-label={t("tasks.enable", { name: task.name })}
          data-testid="task-switch"
          checked={task.enabled}
          onChange={(e) => {
            const enabled = e.target.checked;
            if (enabled) askNotificationPermission();
            const { id: _i, created_at: _c, updated_at: _u, created_by: _b, created_in: _n, next_run: _x, last_run: _l, running: _r, ...fields } = task;
            act(() => api.updateTask(task.id, { ...fields, enabled }));
          }}
        />
        <span className="min-w-0 flex-1 truncate text-[13px] font-semibold text-zinc-800" data-testid="task-title">
          {task.name}
        </span>
        {task.created_by === "agent" && (
          <span data-tip={t("tasks.byAgent")} data-testid="task-by-agent">
            <Bot className="size-3.5 text-zinc-500" />
          </span>
        )}
        {task.running && <Badge variant="default">{t("tasks.running")}</Badge>}
        {!task.running && task.last_run && <Outcome run={task.last_run} onOpenSession={onOpenSession} />}
      </div>
      <div className="mt-0.5 text-zinc-600" data-testid="task-schedule">
        {scheduleInWords(task.schedule, zone)}
      </div>
      <div className="text-zinc-500" data-testid="task-next">
        {nextRunText(task)}
      </div>
      <ActionsWithRuns taskId={task.id} onOpenSession={onOpenSession} toggleTestId="task-history-toggle">
        <Button variant="ghost" size="sm" onClick={() => act(() => api.runTask(task.id))} data-testid="task-run-now">
          <Play /> {t("tasks.runNow")}
        </Button>
        <Button variant="ghost" size="sm" onClick={onEdit} data-testid="task-edit">
          <Pencil /> {t("common.edit")}
        </Button>
        <Button variant="ghost" size="sm" onClick={() => window.confirm(t("tasks.confirmDelete", { name: task.name })) && act(() => api.deleteTask(task.id))} data-testid="task-delete" aria-label={t("tasks.delete", { name: task.name })}>
          <Trash2 />
        </Button>
      </ActionsWithRuns>
    </section>
  );
}

function HeartbeatCard({ heartbeat, onOpenFile, onOpenSession, act }: { heartbeat: Heartbeat; onOpenFile: (path: string) => void; onOpenSession: (id: string) => void; act: (what: () => Promise<unknown>) => void }) {
  const { t } = useTranslation();
  const [minutes, setMinutes] = useState(String(heartbeat.every_minutes));
  const settings = (enabled: boolean, every = Number(minutes) || heartbeat.every_minutes) => ({
    enabled,
    every_minutes: every,
    ...(heartbeat.quiet_hours ? { quiet_hours: heartbeat.quiet_hours } : {}),
    ...(heartbeat.profile ? { profile: heartbeat.profile } : {}),
  });
  return (
    <section className="scroll-mt-4 rounded-lg border border-zinc-200 bg-zinc-50/60 px-2.5 py-2 text-xs" data-anchor="heartbeat" data-testid="heartbeat-card" data-enabled={heartbeat.enabled}>
      <div className="flex items-center gap-1.5">
        <input
          type="checkbox"
          role="switch"
          aria-label={t("tasks.heartbeat")}
          data-testid="heartbeat-switch"
          checked={heartbeat.enabled}
          onChange={(e) => {
            if (e.target.checked) askNotificationPermission();
            act(() => api.setHeartbeat(settings(e.target.checked)));
          }}
        />
        <HeartPulse className="size-3.5 text-klein" />
        <span className="flex-1 text-[13px] font-semibold text-zinc-800">{t("tasks.heartbeat")}</span>
        {heartbeat.last_run && <Outcome run={heartbeat.last_run} onOpenSession={onOpenSession} />}
      </div>
      <div className="mt-1 flex items-center gap-1 text-zinc-600">
        {t("tasks.heartbeatEvery")}
        <input
          aria-label={t("tasks.heartbeatInterval")}
          data-testid="heartbeat-minutes"
          type="number"
          min={1}
          max={1440}
          className="w-14 rounded border border-zinc-200 px-1 py-0.5"
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
          onBlur={() => Number(minutes) !== heartbeat.every_minutes && Number(minutes) >= 1 && act(() => api.setHeartbeat(settings(heartbeat.enabled)))}
        />
        {t("tasks.heartbeatMinutes")}
        {heartbeat.quiet_hours ? t("tasks.quietHours", { from: heartbeat.quiet_hours.from, to: heartbeat.quiet_hours.to }) : ""}
      </div>
      <div className="text-zinc-500">{heartbeat.next_run ? `${t("tasks.next")} ${formatDateTime(heartbeat.next_run)}` : t("tasks.heartbeatOff")}</div>
      <ChecklistChange heartbeat={heartbeat} act={act} />
      <ActionsWithRuns taskId="heartbeat" onOpenSession={onOpenSession}>
        <Button variant="ghost" size="sm" onClick={() => act(() => api.runTask("heartbeat"))} data-testid="heartbeat-run-now">
          <Play /> {t("tasks.runNow")}
        </Button>
        <Button variant="ghost" size="sm" onClick={() => onOpenFile(heartbeat.checklist)} data-testid="heartbeat-checklist">
          <Pencil /> {t("tasks.checklist")}
        </Button>
      </ActionsWithRuns>
    </section>
  );
}

/**
 * Work that runs on its own: the heartbeat, and each task with its schedule in words, its next run in
 * the reader's time, its last outcome, a switch, Run now, Edit, Delete and its runs.
 */
export function TasksView({ sessions, onOpenSession, onOpenFile }: { sessions: SessionSummary[]; onOpenSession: (id: string) => void; onOpenFile: (path: string) => void }) {
  const { t } = useTranslation();
  const { data: reply, error: loadError } = useTasks();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Task | "new" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const act = (what: () => Promise<unknown>) => {
    setError(null);
    what().then(
      () => void queryClient.invalidateQueries({ queryKey: keys.tasks }),
      (err: Error) => setError(err.message),
    );
  };
  if (loadError) return <div className="p-2 text-xs text-red-700">{loadError.message}</div>;
  if (!reply) return <div className="p-2 text-xs text-zinc-500">{t("tasks.loading")}</div>;
  const saved = (task: Task) => {
    if (task.enabled) askNotificationPermission();
    setEditing(null);
    void queryClient.invalidateQueries({ queryKey: keys.tasks });
  };
  return (
    <div className="space-y-2" data-testid="tasks-view">
      <div className="flex items-center justify-between px-1">
        <h3 className="text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">{t("tasks.title", { count: reply.tasks.length })}</h3>
        <div className="flex">
          <Button variant="ghost" size="sm" onClick={() => onOpenFile(reply.file)} aria-label={t("common.editFile", { file: reply.file })} data-tip={t("common.editFile", { file: reply.file })}>
            <FileCog />
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setEditing("new")} data-testid="task-new">
            <Plus /> {t("tasks.new")}
          </Button>
        </div>
      </div>
      {reply.problem && <WarningLine text={reply.problem} testId="tasks-problem" />}
      {error && <p className="px-1 text-xs text-red-700" data-testid="tasks-error">{error}</p>}
      {editing === "new" && <TaskForm task={null} sessions={sessions} serverZone={reply.time_zone} onSaved={saved} onCancel={() => setEditing(null)} />}
      <HeartbeatCard heartbeat={reply.heartbeat} onOpenFile={onOpenFile} onOpenSession={onOpenSession} act={act} />
      <ConsolidationCard consolidation={reply.consolidation} onOpenSession={onOpenSession} act={act} />
      {reply.tasks.length === 0 && editing !== "new" && (
        <p className="px-1 text-xs leading-relaxed text-zinc-500" data-testid="tasks-empty">
          {t("tasks.empty")}
        </p>
      )}
      {reply.tasks.map((task) =>
        editing !== "new" && editing?.id === task.id ? (
          <TaskForm key={task.id} task={task} sessions={sessions} serverZone={reply.time_zone} onSaved={saved} onCancel={() => setEditing(null)} />
        ) : (
          <TaskCard key={task.id} task={task} zone={reply.time_zone} onEdit={() => setEditing(task)} onOpenSession={onOpenSession} act={act} />
        ),
      )}
    </div>
  );
}
