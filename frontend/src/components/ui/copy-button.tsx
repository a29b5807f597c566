"use client";
import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { cn } from "@/lib/utils";
import { useTranslation } from "react-i18next";

/** Copies what `text()` gives to the clipboard, and says so for a moment. */
export function CopyButton({ text, label, className, testId }: { text: () => string; label: string; className?: string; testId?: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  return (
    <button
      type="button"
      aria-label={label}
      data-tip={copied === "failed" ? t("copy.refused") : copied ? t("copy.copied") : label}
      data-testid={testId}
      className={cn("rounded p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-700 focus-visible:opacity-100", className)}
      onClick={() => {
        navigator.clipboard.writeText(text()).then(
          () => setCopied("yes"),
          () => setCopied("failed"),
        );
        setTimeout(() => setCopied(null), 1500);
      }}
    >
      {copied === "yes" ? <Check className="size-3.5 text-emerald-600" /> : <Copy className="size-3.5" />}
    </button>
  );
}
