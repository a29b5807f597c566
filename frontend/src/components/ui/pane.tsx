import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "@/lib/utils";

/** A pane's header row: title on the left, actions on the right. */
export function PaneHeader({ title, children, className }: { title: ReactNode; children?: ReactNode; className?: string }) {
  return (
    <div className={cn("flex h-11 shrink-0 items-center justify-between gap-2 border-b border-zinc-200/80 px-3", className)}>
      <div className="min-w-0 truncate text-sm font-semibold text-zinc-800" data-testid="pane-title">
        {title}
      </div>
      <div className="flex items-center gap-1">{children}</div>
    </div>
  );
}

export function Pane({ className, ...props }: HTMLAttributes<HTMLElement>) {
  return <section className={cn("flex h-full min-h-0 flex-col bg-white", className)} {...props} />;
}
