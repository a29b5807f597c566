"use client";
import type { HookRunEvent } from "@mini-openclaw/protocol";
import { ChevronRight, Webhook } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from "@/components/ui/collapsible";
import { formatDuration } from "@/i18n/format";
import { cn } from "@/lib/utils";


/**
 * One hook's run: which hook, on what, how long, what it decided; its reason, context, rewrite and
 * output one click away. Under the call it acted on, or a line of the turn.
 */
export function HookLine({ run }: { run: HookRunEvent }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const tone = run.status === "failed" ? "text-red-700" : run.decision === "deny" || run.decision === "block" || run.decision === "stop" ? "text-amber-800" : "text-zinc-600";
  const detail = run.error ?? run.reason;
  return (
    <Collapsible open={open} onOpenChange={setOpen} data-testid="hook-line" data-event={run.event} data-status={run.status} data-decision={run.decision ?? ""} className="px-3 pb-1.5 text-xs">
      <CollapsibleTrigger className={cn("flex w-full min-w-0 items-center gap-1.5 text-left", tone)}>
        <ChevronRight className={cn("size-3 shrink-0 transition-transform", open && "rotate-90")} />
        <Webhook className="size-3.5 shrink-0" />
        <span className="font-semibold">{run.event}</span>
        <span className="min-w-0 flex-1 truncate font-mono text-[11px] text-zinc-500">{run.command}</span>
        <span data-testid="hook-outcome" className="font-medium">{run.decision ? t(`hooks.decision.${run.decision}`) : t(`hooks.status.${run.status}`)}</span>
        <span className="tabular-nums text-zinc-500">{formatDuration(run.duration_ms)}</span>
      </CollapsibleTrigger>
      {detail && !open && <div className={cn("truncate pl-8", tone)}>{detail}</div>}
      <CollapsibleContent>
        <dl className="mt-1 space-y-1 pl-8 text-zinc-700" data-testid="hook-detail">
          <div><dt className="inline font-semibold">{t("hooks.source")}: </dt><dd className="inline font-mono">{run.source}{run.matcher ? ` · ${run.matcher}` : ""}</dd></div>
          <div><dt className="inline font-semibold">{t("hooks.exitCode")}: </dt><dd className="inline font-mono">{run.exit_code ?? "—"}</dd></div>
          {run.error && <div><dt className="inline font-semibold">{t("hooks.error")}: </dt><dd className="inline">{run.error}</dd></div>}
          {run.reason && <div><dt className="inline font-semibold">{t("hooks.reason")}: </dt><dd className="inline">{run.reason}</dd></div>}
          {run.note && <div><dt className="inline font-semibold">{t("hooks.note")}: </dt><dd className="inline">{run.note}</dd></div>}
          {run.additional_context && <div><dt className="inline font-semibold">{t("hooks.context")}: </dt><dd className="inline whitespace-pre-wrap">{run.additional_context}</dd></div>}
          {run.updated_input !== undefined && (
            <div><dt className="font-semibold">{t("hooks.rewrite")}</dt><dd><pre className="whitespace-pre-wrap break-words rounded bg-zinc-50 p-1.5 font-mono text-[11px]">{JSON.stringify(run.updated_input, null, 2)}</pre></dd></div>
          )}
          {run.output && (
            <div><dt className="font-semibold">{t("hooks.output")}</dt><dd><pre className="max-h-48 overflow-auto whitespace-pre-wrap break-words rounded bg-zinc-50 p-1.5 font-mono text-[11px]">{run.output}</pre></dd></div>
          )}
        </dl>
      </CollapsibleContent>
    </Collapsible>
  );
}
