"use client";
import { ClipboardCheck } from "lucide-react";
import { useTranslation } from "react-i18next";

/** The reviewer's look at the turn: the record (for the user only) and the advice the agent gets next turn. */
export function ReviewBlock({ advice, record }: { advice: string; record: string }) {
  const { t } = useTranslation();
  return (
    <div data-testid="review" className="rounded-lg border border-emerald-200 bg-emerald-50/50 px-3 py-2 text-[13px] text-zinc-700">
      <div className="mb-1 flex items-center gap-1.5 text-xs font-semibold text-emerald-800">
        <ClipboardCheck className="size-3.5" /> {t("review.title")}
        <span className="font-normal text-emerald-700/80">· {t("review.private")}</span>
      </div>
      <div data-testid="review-record" className="whitespace-pre-wrap">{record}</div>
      {advice && (
        <div data-testid="review-advice" className="mt-1.5 border-t border-emerald-200 pt-1.5 text-xs text-zinc-600">
          <span className="font-semibold">{t("review.advice")}</span> {advice}
        </div>
      )}
    </div>
  );
}
