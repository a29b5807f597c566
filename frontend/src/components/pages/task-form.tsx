"use client";
import type { SessionSummary, Task, TaskFields, TaskSchedule } from "@mini-openclaw/protocol";
import { Loader2 } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/api";
import { hasSeconds } from "@/lib/schedule-words";
import { formatDateTime } from "@/i18n/format";
import { useModels } from "@/lib/server-state";
import { cn } from "@/lib/utils";
import { useTranslation } from "react-i18next";

const field = "w-full rounded-md border border-zinc-200 bg-white px-2 py-1 text-[12.5px] outline-none focus:border-klein/50 focus:ring-2 focus:ring-klein/10";
const UNITS = { seconds: 1, minutes: 60, hours: 3600 } as const;

/** `datetime-local`'s value for an ISO time, in the browser's zone. */
function localInput(iso: string | undefined): string {
  const date = iso ? new Date(iso) : new Date(Date.now() + 3_600_000);
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

const SCHEDULE_KINDS = ["cron", "every", "once"] as const;
/** Weekdays at nine: an example, not words to translate. */
const CRON_EXAMPLE = "0 9 * * 1-5";

/**
 * A task's fields, new or edited: name, prompt, schedule (cron in a time zone, an interval, or one
 * time), where its runs go, the model profile and unattended approvals. The next five times show
 * while the schedule is typed (the server computes them, with the same library that runs them).
 */
export function TaskForm({ task, sessions, serverZone, onSaved, onCancel }: { task: Task | null; sessions: SessionSummary[]; serverZone: string; onSaved: (task: Task) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const { data: models } = useModels();
  const [name, setName] = useState(task?.name ?? "");
  const [prompt, setPrompt] = useState(task?.prompt ?? "");
  const [kind, setKind] = useState<TaskSchedule["kind"]>(task?.schedule.kind ?? "cron");
  const [expr, setExpr] = useState(task?.schedule.kind === "cron" ? task.schedule.expr : "0 9 * * 1-5");
  const [tz, setTz] = useState(task?.schedule.kind === "cron" ? (task.schedule.tz ?? "") : "");
  const initialEvery = task?.schedule.kind === "every" ? task.schedule.seconds : 1800;
  const [unit, setUnit] = useState<keyof typeof UNITS>(initialEvery % 3600 === 0 ? "hours" : initialEvery % 60 === 0 ? "minutes" : "seconds");
  const [amount, setAmount] = useState(String(initialEvery / UNITS[initialEvery % 3600 === 0 ? "hours" : initialEvery % 60 === 0 ? "minutes" : "seconds"]));
  const [at, setAt] = useState(localInput(task?.schedule.kind === "once" ? task.schedule.at : undefined));
  const [session, setSession] = useState(task?.session ?? "");
  const [profile, setProfile] = useState(task?.profile ?? "");
  const [approvals, setApprovals] = useState(task?.unattended_approvals ?? "wait");
  const [enabled, setEnabled] = useState(task?.enabled ?? true);
  const [preview, setPreview] = useState<{ next: string[] } | { error: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const schedule: TaskSchedule =
    kind === "cron"
      ? { kind, expr: expr.trim(), ...(tz.trim() ? { tz: tz.trim() } : {}) }
      : kind === "every"
        ? { kind, seconds: Math.max(1, Math.round(Number(amount) * UNITS[unit]) || 0) }
        : { kind, at: new Date(at).toISOString() };
  const scheduleKey = JSON.stringify(schedule);

  // The next times, asked again a moment after the schedule stops changing.
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.previewSchedule(JSON.parse(scheduleKey) as TaskSchedule, controller.signal).then(
        (reply) => setPreview(reply),
        (err: Error) => !controller.signal.aborted && setPreview({ error: err.message }),
      );
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [scheduleKey]);

  const save = async () => {
    setSaving(true);
    setError(null);
    const fields: TaskFields = {
      name: name.trim(),
      prompt,
      schedule,
      enabled,
      unattended_approvals: approvals,
      ...(session ? { session } : {}),
      ...(profile ? { profile } : {}),
      ...(task?.tools ? { tools: task.tools } : {}),
      ...(task?.approval_timeout_seconds ? { approval_timeout_seconds: task.approval_timeout_seconds } : {}),
    };
    try {
      onSaved(task ? await api.updateTask(task.id, fields) : await api.createTask(fields));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      data-testid="task-form"
      className="space-y-2 rounded-lg border border-klein/30 bg-klein-50/30 p-2.5 text-xs text-zinc-600"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label className="block space-y-0.5">
        {t("tasks.form.name")}
        <input data-testid="task-name" className={field} value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder={t("tasks.form.namePlaceholder")} />
      </label>
      <label className="block space-y-0.5">
        {t("tasks.form.prompt")}
        <textarea data-testid="task-prompt" className={cn(field, "min-h-[60px] resize-y")} value={prompt} onChange={(e) => setPrompt(e.target.value)} required placeholder={t("tasks.form.promptPlaceholder")} />
      </label>
      <div className="space-y-1">
        <div className="flex gap-1" role="radiogroup" aria-label={t("tasks.form.schedule")}>
          {SCHEDULE_KINDS.map((k) => (
            <button
              key={k}
              type="button"
              role="radio"
              aria-checked={kind === k}
              data-testid={`task-kind-${k}`}
              onClick={() => setKind(k)}
              className={cn("rounded-md border px-2 py-0.5", kind === k ? "border-klein bg-klein-50 text-klein" : "border-zinc-200 bg-white text-zinc-600 hover:bg-zinc-50")}
            >
              {t(`tasks.form.kind.${k}`)}
            </button>
          ))}
        </div>
        {kind === "cron" && (
          <div className="flex gap-1">
            <input data-testid="task-cron" aria-label={t("tasks.form.cron")} className={cn(field, "font-mono")} value={expr} onChange={(e) => setExpr(e.target.value)} placeholder={CRON_EXAMPLE} />
            <input data-testid="task-tz" aria-label={t("tasks.form.timeZone")} className={cn(field, "w-[45%]")} value={tz} onChange={(e) => setTz(e.target.value)} placeholder={serverZone} />
          </div>
        )}
        {kind === "every" && (
          <div className="flex gap-1">
            <input data-testid="task-every" aria-label={t("tasks.form.kind.every")} type="number" min={1} className={cn(field, "w-20")} value={amount} onChange={(e) => setAmount(e.target.value)} />
            <select aria-label={t("tasks.form.unit")} className={field} value={unit} onChange={(e) => setUnit(e.target.value as keyof typeof UNITS)}>
              <option value="seconds">{t("tasks.form.seconds")}</option>
              <option value="minutes">{t("tasks.form.minutes")}</option>
              <option value="hours">{t("tasks.form.hours")}</option>
            </select>
          </div>
        )}
        {kind === "once" && <input data-testid="task-at" aria-label={t("tasks.form.when")} type="datetime-local" className={field} value={at} onChange={(e) => setAt(e.target.value)} />}
        <div data-testid="task-preview" className="rounded bg-white/70 px-1.5 py-1 text-[11px]">
          {preview === null ? (
            <span className="text-zinc-500">…</span>
          ) : "error" in preview ? (
            <span className="text-red-700" data-testid="task-preview-error">{preview.error}</span>
          ) : (
            <>
              <span className="text-zinc-500">{t("tasks.next")} </span>
              {preview.next.length === 0 ? t("tasks.never") : preview.next.map((time) => formatDateTime(time, hasSeconds(schedule))).join(" · ")}
            </>
          )}
        </div>
      </div>
      <label className="block space-y-0.5">
        {t("tasks.form.runsGoTo")}
        <select data-testid="task-session" className={field} value={session} onChange={(e) => setSession(e.target.value)}>
          <option value="">{t("tasks.form.newSessionEachRun")}</option>
          {sessions.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
      </label>
      <div className="flex gap-1">
        <label className="block flex-1 space-y-0.5">
          {t("tasks.form.model")}
          <select data-testid="task-profile" className={field} value={profile} onChange={(e) => setProfile(e.target.value)}>
            <option value="">{t("tasks.form.defaultModel")}</option>
            {models?.profiles.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label className="block flex-1 space-y-0.5">
          {t("view.approvals")}
          <select data-testid="task-approvals" className={field} value={approvals} onChange={(e) => setApprovals(e.target.value as "wait" | "deny")}>
            <option value="wait">{t("tasks.form.wait")}</option>
            <option value="deny">{t("tasks.form.deny")}</option>
          </select>
        </label>
      </div>
      <label className="flex items-center gap-1.5">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} data-testid="task-enabled" /> {t("tasks.form.enabled")}
      </label>
      {error && <p className="text-red-700" data-testid="task-form-error">{error}</p>}
      <div className="flex justify-end gap-1">
        <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" size="sm" disabled={saving || !name.trim() || !prompt.trim()} data-testid="task-save">
          {saving && <Loader2 className="animate-spin" />}
          {task ? t("common.save") : t("tasks.form.create")}
        </Button>
      </div>
    </form>
  );
}
