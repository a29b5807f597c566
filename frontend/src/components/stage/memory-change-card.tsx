"use client";
import type { ChangeDiffReply } from "@mini-openclaw/protocol";
import { Brain } from "lucide-react";
import { useContext, useEffect, useState } from "react";
import { api } from "@/lib/api";
import { lineDiff, withContext } from "@mini-openclaw/protocol/line-diff";
import { cn } from "@/lib/utils";
import { ChangeContext } from "./changed-files";
import { useTranslation } from "react-i18next";

/** A change a call made to MEMORY.md, in the conversation: the lines it removed and added. */
export function MemoryChangeCard({ change, path }: { change: string; path: string }) {
  const { t } = useTranslation();
  const [diff, setDiff] = useState<ChangeDiffReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const openChange = useContext(ChangeContext);
  useEffect(() => {
    api.changeDiff(change, path).then(setDiff, (err: Error) => setError(err.message));
  }, [change, path]);
  const lines = diff ? lineDiff(diff.before ?? "", diff.after ?? "") : null;
  return (
    <div className="rounded-lg border border-violet-200 bg-violet-50/40 px-3 py-2 text-xs" data-testid="memory-change">
      <div className="flex items-center gap-1.5 font-medium text-violet-900">
        <Brain className="size-3.5" /> {t("memory.changed", { file: "MEMORY.md" })}
        <button type="button" className="ml-auto text-[11px] font-normal text-klein hover:underline" onClick={() => openChange?.(change, path)}>
          {t("memory.openDiff")}
        </button>
      </div>
      {error && <div className="mt-1 text-red-700">{error}</div>}
      {diff && !lines && <div className="mt-1 text-zinc-500">{t("memory.tooLarge")}</div>}
      {lines && (
        <pre className="mt-1 max-h-48 overflow-auto font-mono text-[11.5px] leading-snug whitespace-pre-wrap" data-testid="memory-diff">
          {withContext(lines).map((line, i) =>
            line === null ? (
              <div key={i} className="text-zinc-500">
                ⋯
              </div>
            ) : (
              <div key={i} className={cn(line.kind === "added" && "bg-emerald-100/70 text-emerald-900", line.kind === "removed" && "bg-red-100/70 text-red-900 line-through decoration-red-300", line.kind === "same" && "text-zinc-500")}>
                {line.kind === "added" ? "+ " : line.kind === "removed" ? "− " : "  "}
                {line.text}
              </div>
            ),
          )}
        </pre>
      )}
    </div>
  );
}
