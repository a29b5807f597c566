"use client";
import { X } from "lucide-react";
import { useTranslation } from "react-i18next";

/** A dialog's title with the button that closes it. */
export function DialogHeader({ title, onClose }: { title: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="flex items-center justify-between">
      <h2 className="text-[15px] font-semibold text-zinc-900">{title}</h2>
      <button type="button" aria-label={t("common.close")} className="text-zinc-500 hover:text-zinc-700" onClick={onClose}>
        <X className="size-4" />
      </button>
    </div>
  );
}
