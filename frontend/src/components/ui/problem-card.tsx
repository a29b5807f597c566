"use client";
import { TriangleAlert } from "lucide-react";
import { useTranslation } from "react-i18next";

/** A skill or role file that could not be loaded, with the reason; a click opens it to fix it. */
export function ProblemCard({ title, reason, testId, onOpen }: { title: string; reason: string; testId: string; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" data-testid={testId} onClick={onOpen} className="block w-full rounded-lg border border-red-200 bg-red-50 px-2.5 py-2 text-left">
      <div className="flex items-center gap-1.5 font-mono text-[13px] font-semibold text-red-800">
        <TriangleAlert className="size-3.5 shrink-0" />
        {title}
      </div>
      <div className="mt-1 text-xs text-red-700">{t("common.notLoaded", { detail: reason })}</div>
    </button>
  );
}

/** A warning about a skill or role that still loads. */
export function WarningLine({ text, testId }: { text: string; testId?: string }) {
  return (
    <div className="mt-1 flex gap-1 text-[11px] text-amber-700" data-testid={testId}>
      <TriangleAlert className="mt-px size-3 shrink-0" />
      {text}
    </div>
  );
}
