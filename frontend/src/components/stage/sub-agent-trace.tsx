"use client";
import { Bot } from "lucide-react";
import type { SubAgent } from "@/lib/turn-model";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** A sub-agent's whole turn, nested under the delegate call that started it; `children`: its blocks. */
export function SubAgentTrace({ sub, children }: { sub: SubAgent; children: ReactNode }) {
  const { t } = useTranslation();
  const streaming = sub.turn.status === "streaming";
  return (
    <div data-testid="sub-agent" data-agent={sub.agent} data-depth={sub.depth} data-status={sub.turn.status} className="border-t border-zinc-100 px-3 py-2">
      <div className="mb-1.5 flex items-center gap-1.5 text-xs text-zinc-500">
        <Bot className="size-3.5 text-klein" />
        <span className="font-semibold text-zinc-700">{sub.agent}</span>
        <span>· {t("agents.depth", { depth: sub.depth })}</span>
        {streaming && <span className="animate-pulse text-klein">· {t("agents.working")}</span>}
      </div>
      <div className="space-y-2 border-l-2 border-klein-100 pl-3" data-testid="sub-agent-blocks">
        {children}
      </div>
    </div>
  );
}
