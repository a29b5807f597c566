"use client";
import { Search, X } from "lucide-react";
import { useTranslation } from "react-i18next";
import { cn } from "@/lib/utils";

/** A small search field with its icon; Escape and the × clear it. `onSubmit`: Enter runs it (a query box). */
export function SearchBox({
  value,
  onChange,
  placeholder,
  testId,
  onSubmit,
  className,
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  testId: string;
  onSubmit?: () => void;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <form
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit?.();
      }}
      className={cn("flex items-center gap-1.5 rounded-md border border-zinc-200 px-2 py-1 focus-within:border-klein-100", className)}
    >
      <Search className="size-3.5 shrink-0 text-zinc-500" />
      <input
        data-testid={testId}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => e.key === "Escape" && onChange("")}
        placeholder={placeholder}
        className="w-full bg-transparent text-xs outline-none placeholder:text-zinc-400"
      />
      {value && (
        <button type="button" aria-label={t("common.clear")} onClick={() => onChange("")} className="text-zinc-500 hover:text-zinc-700">
          <X className="size-3.5" />
        </button>
      )}
    </form>
  );
}
