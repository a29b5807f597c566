"use client";
import { FileText } from "lucide-react";
import { cn } from "@/lib/utils";

/** A file of the data root in a Sidebar list; a click opens it in the Inspector. */
export function FileButton({ path, label, active, onOpen }: { path: string; label?: string; active: boolean; onOpen: (path: string) => void }) {
  return (
    <button
      type="button"
      onClick={() => onOpen(path)}
      data-testid="sidebar-file"
      data-path={path}
      className={cn("flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-[13px]", active ? "bg-klein-50 text-klein" : "text-zinc-700 hover:bg-zinc-50")}
    >
      <FileText className="size-3.5 shrink-0 text-zinc-500" />
      <span className="truncate font-mono text-xs">{label ?? path}</span>
    </button>
  );
}
