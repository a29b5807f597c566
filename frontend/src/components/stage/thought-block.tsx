"use client";
import { Brain, ChevronRight } from "lucide-react";
import { useState } from "react";
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from "@/components/ui/collapsible";
import { formatDuration } from "@/i18n/format";
import { cn } from "@/lib/utils";
import { useTranslation } from "react-i18next";

/**
 * The model's reasoning: open while it streams, collapsed once it is done, and never closed
 * under a reader who opened (or kept open) it themselves.
 */
export function ThoughtBlock({ text, streaming, ms }: { text: string; streaming: boolean; /** How long it thought, once known. */ ms?: number }) {
  const { t } = useTranslation();
  const [userChoice, setUserChoice] = useState<boolean | null>(null);
  const open = userChoice ?? streaming;
  return (
    <Collapsible open={open} onOpenChange={setUserChoice} data-testid="thought-block" data-state={open ? "open" : "closed"}>
      <CollapsibleTrigger className="group flex items-center gap-1.5 text-xs font-medium text-zinc-500 hover:text-zinc-800">
        <ChevronRight className={cn("size-3.5 transition-transform", open && "rotate-90")} />
        <Brain className={cn("size-3.5", streaming && "animate-pulse text-klein")} />
        {streaming ? t("thought.thinking") : ms !== undefined ? t("thought.for", { duration: formatDuration(ms) }) : t("thought.thought")}
        {!open && ms === undefined && <span className="font-normal text-zinc-500">· {t("thought.chars", { count: text.length })}</span>}
      </CollapsibleTrigger>
      <CollapsibleContent>
        <div className="mt-1.5 whitespace-pre-wrap border-l-2 border-zinc-200 pl-3 text-[13px] leading-relaxed text-zinc-500 italic">
          {text}
        </div>
      </CollapsibleContent>
    </Collapsible>
  );
}
