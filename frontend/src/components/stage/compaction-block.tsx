"use client";
import { ChevronRight, Layers } from "lucide-react";
import { useState } from "react";
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from "@/components/ui/collapsible";
import { cn } from "@/lib/utils";
import { Markdown } from "./markdown";
import { useTranslation } from "react-i18next";

interface CompactionBlockProps {
  turns: number;
  summary: string;
  skills: string[];
  forced: boolean;
}

/** Marks where earlier turns were summarized for the model; the summary opens on demand. */
export function CompactionBlock({ turns, summary, skills, forced }: CompactionBlockProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Collapsible open={open} onOpenChange={setOpen} data-testid="compaction" className="rounded-lg border border-dashed border-amber-300 bg-amber-50/60 px-3 py-2">
      <CollapsibleTrigger className="flex w-full items-center gap-1.5 text-left text-xs font-medium text-amber-900">
        <ChevronRight className={cn("size-3.5 shrink-0 transition-transform", open && "rotate-90")} />
        <Layers className="size-3.5 shrink-0" />
        <span>
          {forced ? t("compaction.onRequest", { count: turns }) : t("compaction.overBudget", { count: turns })}
          {skills.length > 0 && t("compaction.plusSkills", { skills: skills.join(", ") })}
        </span>
      </CollapsibleTrigger>
      <CollapsibleContent>
        <div className="mt-2 border-t border-amber-200 pt-2" data-testid="compaction-summary">
          <Markdown text={summary} />
        </div>
      </CollapsibleContent>
    </Collapsible>
  );
}
