"use client";
import type { Consolidation } from "@mini-openclaw/protocol";
import { BrainCircuit, Play } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/api";
import { formatDateTime } from "@/i18n/format";
import { useTranslation } from "react-i18next";
import { ActionsWithRuns, Outcome } from "./run-outcome";

/** The daily memory consolidation: on or off, its time and reading budget, Run now, its runs (each opens its session). */
export function ConsolidationCard({ consolidation, onOpenSession, act }: { consolidation: Consolidation; onOpenSession: (id: string) => void; act: (what: () => Promise<unknown>) => void }) {
  const { t } = useTranslation();
  const [at, setAt] = useState(consolidation.at);
  const [budget, setBudget] = useState(String(consolidation.budget_chars));
  const settings = (enabled: boolean) => ({
    enabled,
    at,
    budget_chars: Number(budget) || consolidation.budget_chars,
  });
  const changed = at !== consolidation.at || Number(budget) !== consolidation.budget_chars;
  return (
    <section className="scroll-mt-4 rounded-lg border border-zinc-200 bg-zinc-50/60 px-2.5 py-2 text-xs" data-anchor="consolidation" data-testid="consolidation-card" data-enabled={consolidation.enabled}>
      <div className="flex items-center gap-1.5">
        <input type="checkbox" role="switch" aria-label={t("consolidation.enabled")} data-testid="consolidation-switch" checked={consolidation.enabled} onChange={(e) => act(() => api.setConsolidation(settings(e.target.checked)))} />
        <BrainCircuit className="size-3.5 text-klein" />
        <span className="flex-1 text-[13px] font-semibold text-zinc-800">{t("consolidation.title")}</span>
        {consolidation.last_run && <Outcome run={consolidation.last_run} onOpenSession={onOpenSession} />}
      </div>
      <p className="mt-1 leading-relaxed text-zinc-600">{t("consolidation.intro")}</p>
      <div className="mt-1 flex flex-wrap items-center gap-1.5 text-zinc-600">
        <label className="flex items-center gap-1">
          {t("consolidation.at")}
          <input type="time" data-testid="consolidation-at" className="rounded border border-zinc-200 px-1 py-0.5" value={at} onChange={(e) => setAt(e.target.value)} />
        </label>
        <label className="flex items-center gap-1">
          {t("consolidation.budget")}
          <input type="number" min={1000} step={1000} data-testid="consolidation-budget" className="w-24 rounded border border-zinc-200 px-1 py-0.5" value={budget} onChange={(e) => setBudget(e.target.value)} />
        </label>
        {changed && (
          <Button size="sm" variant="outline" onClick={() => act(() => api.setConsolidation(settings(consolidation.enabled)))} data-testid="consolidation-save">
            {t("consolidation.save")}
          </Button>
        )}
      </div>
      {consolidation.next_run && <div className="text-zinc-500">{t("consolidation.next", { time: formatDateTime(consolidation.next_run) })}</div>}
      {consolidation.last_run?.detail && (
        <div className="text-zinc-500" data-testid="consolidation-last-detail">
          {t("consolidation.lastRun", { outcome: t(`tasks.outcome.${consolidation.last_run.outcome}`) })} · {consolidation.last_run.detail}
        </div>
      )}
      <ActionsWithRuns taskId="consolidation" onOpenSession={onOpenSession}>
        <Button variant="ghost" size="sm" onClick={() => act(() => api.runTask("consolidation"))} disabled={consolidation.running} data-testid="consolidation-run-now">
          <Play /> {t("consolidation.runNow")}
        </Button>
      </ActionsWithRuns>
    </section>
  );
}
