"use client";
import { useQuery } from "@tanstack/react-query";
import { formatNumber } from "@/i18n/format";
import { ChevronRight, RefreshCw } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from "@/components/ui/collapsible";
import { api } from "@/lib/api";
import { keys } from "@/lib/server-state";
import { cn } from "@/lib/utils";
import { useTranslation } from "react-i18next";

/** The system prompt as last sent for this session (or a preview), section by section with sizes. */
export function PromptView({ sessionId }: { sessionId: string | null }) {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: keys.prompt(sessionId), queryFn: () => api.prompt(sessionId) });
  const prompt = query.data ?? null;
  const load = () => void query.refetch();

  if (query.error) return <div className="p-3 text-sm text-red-700">{query.error.message}</div>;
  if (!prompt) return <div className="p-3 text-sm text-zinc-500">{t("common.loading")}</div>;
  return (
    <div className="h-full overflow-y-auto p-3" data-testid="prompt-view">
      <div className="mb-3 flex items-center justify-between gap-2">
        <div className="text-xs text-zinc-500">
          {prompt.session_id ? t("prompt.asSent") : t("prompt.preview")} ·{" "}
          {t("prompt.size", { total: formatNumber(prompt.total_chars), budget: formatNumber(prompt.budget_chars), used: formatNumber(prompt.total_chars / prompt.budget_chars, { style: "percent" }) })}
        </div>
        <Button variant="ghost" size="icon" onClick={load} aria-label={t("prompt.refresh")}>
          <RefreshCw />
        </Button>
      </div>
      <div className="space-y-1.5">
        {prompt.sections.map((section) => (
          <Collapsible key={section.name} data-testid="prompt-section" data-name={section.name} className="rounded-lg border border-zinc-200 bg-white">
            <CollapsibleTrigger className="group flex w-full items-center gap-2 px-2.5 py-2 text-left">
              <ChevronRight className="size-3.5 text-zinc-500 transition-transform group-data-[state=open]:rotate-90" />
              <span className="flex-1 font-mono text-xs font-semibold text-zinc-800">{section.name}</span>
              {section.missing && <Badge variant="danger">{t("prompt.missing")}</Badge>}
              {section.problem && (
                <Badge variant="danger" data-tip={t("prompt.notRead", { path: section.path, detail: section.problem })} data-testid="prompt-section-problem">
                  {section.problem}
                </Badge>
              )}
              {section.truncated && <Badge variant="warning">{t("prompt.truncated")}</Badge>}
              <span className="text-[11px] tabular-nums text-zinc-500" data-tip={t("prompt.sizesTip")}>
                {`${formatNumber(section.raw_chars)} → ${formatNumber(section.injected_chars)} · ≈`}
                {t("prompt.tokens", { count: section.token_estimate })}
              </span>
            </CollapsibleTrigger>
            <CollapsibleContent>
              <pre className={cn("max-h-80 overflow-auto whitespace-pre-wrap border-t border-zinc-100 p-2.5 font-mono text-[11.5px] leading-relaxed text-zinc-700")}>
                {section.text}
              </pre>
            </CollapsibleContent>
          </Collapsible>
        ))}
      </div>
    </div>
  );
}
