"use client";
import { CircleAlert, Info, X } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useCallback, useState } from "react";
import { cn } from "@/lib/utils";

export interface Toast {
  id: number;
  message: string;
  level: "info" | "warning";
  /** A button on the toast (Undo): it runs once and dismisses the toast. */
  action?: ToastAction;
}

export interface ToastAction {
  label: string;
  run: () => void;
}

const VISIBLE_MS = 8_000;
let nextId = 1;

/** Short-lived messages from the backend or the UI itself; each one leaves by itself or on a click. */
export function useToasts() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback(
    (message: string, level: Toast["level"] = "info", action?: ToastAction) => {
      const id = nextId++;
      setToasts((all) => [...all.slice(-3), { id, message, level, action }]);
      setTimeout(() => dismiss(id), VISIBLE_MS);
    },
    [dismiss],
  );
  return { toasts, show, dismiss };
}

export function Toaster({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: number) => void }) {
  const { t } = useTranslation();
  return (
    <div className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-96 flex-col gap-2" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          data-testid="toast"
          data-level={toast.level}
          className={cn(
            "pointer-events-auto flex items-start gap-2 rounded-lg border bg-white px-3 py-2.5 text-sm shadow-lg",
            toast.level === "warning" ? "border-amber-300 text-amber-900" : "border-zinc-200 text-zinc-800",
          )}
        >
          {toast.level === "warning" ? <CircleAlert className="mt-0.5 size-4 shrink-0" /> : <Info className="mt-0.5 size-4 shrink-0 text-klein" />}
          <span className="min-w-0 flex-1 break-words">{toast.message}</span>
          {toast.action && (
            <button
              type="button"
              data-testid="toast-action"
              onClick={() => {
                onDismiss(toast.id);
                toast.action?.run();
              }}
              className="shrink-0 rounded px-1.5 font-semibold text-klein hover:bg-klein-50"
            >
              {toast.action.label}
            </button>
          )}
          <button type="button" aria-label={t("common.dismiss")} onClick={() => onDismiss(toast.id)} className="text-zinc-500 hover:text-zinc-700">
            <X className="size-4" />
          </button>
        </div>
      ))}
    </div>
  );
}
