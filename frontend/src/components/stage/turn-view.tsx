"use client";
import { User } from "lucide-react";
import { memo } from "react";
import type { Turn } from "@/lib/turn-model";
import { cn, formatDuration } from "@/lib/utils";
import { BlockList } from "./block-list";

/** One turn: the user's message, then everything the agent did, in the order it happened. */
export const TurnView = memo(function TurnView({ turn, number, highlighted = false }: { turn: Turn; number?: number; highlighted?: boolean }) {
  const streaming = turn.status === "streaming";
  return (
    <article
      className={cn("turn space-y-3", highlighted && "-mx-3 rounded-xl px-3 py-2 ring-2 ring-amber-300 bg-amber-50/40")}
      data-testid="turn"
      data-turn-number={number}
      data-highlighted={highlighted ? "true" : undefined}
      data-status={turn.status}
      data-compacted={turn.compacted ? "true" : undefined}
    >
      {turn.compacted && (
        <div className="text-[11px] font-medium tracking-wide text-amber-700 uppercase" title="The model is sent a summary in place of this turn; the session file keeps it whole.">
          In the summary
        </div>
      )}
      <div className="flex justify-end">
        <div className="flex max-w-[85%] items-start gap-2">
          <div data-testid="user-message" className="whitespace-pre-wrap rounded-2xl rounded-tr-sm bg-klein px-3.5 py-2 text-[14.5px] text-white shadow-sm">
            {turn.user}
          </div>
          <User className="mt-1.5 size-4 shrink-0 text-zinc-400" />
        </div>
      </div>
      <div className="space-y-2.5 pl-1" data-testid="assistant">
        <BlockList blocks={turn.blocks} streaming={streaming} />
        {streaming && turn.blocks.length === 0 && <div className="h-5 w-16 animate-pulse rounded bg-zinc-100" data-testid="waiting" />}
        {!streaming && turn.durationMs !== undefined && (
          <div className="text-[11px] text-zinc-400" data-testid="turn-footer">
            {formatDuration(turn.durationMs)}
            {turn.usage && ` · ${turn.usage.input.toLocaleString()} in / ${turn.usage.output.toLocaleString()} out tokens${turn.usage.cached ? ` (${turn.usage.cached.toLocaleString()} cached)` : ""}`}
          </div>
        )}
      </div>
    </article>
  );
});
