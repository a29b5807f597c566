"use client";
import { Sparkles, TriangleAlert, User } from "lucide-react";
import { memo } from "react";
import { Badge } from "@/components/ui/badge";
import type { Turn } from "@/lib/turn-model";
import { formatDuration } from "@/lib/utils";
import { AnswerText } from "./answer-text";
import { CompactionBlock } from "./compaction-block";
import { ThoughtBlock } from "./thought-block";
import { ToolCard } from "./tool-card";

/** One turn: the user's message, then everything the agent did, in the order it happened. */
export const TurnView = memo(function TurnView({ turn }: { turn: Turn }) {
  const streaming = turn.status === "streaming";
  const lastIndex = turn.blocks.length - 1;
  return (
    <article className="turn space-y-3" data-testid="turn" data-status={turn.status} data-compacted={turn.compacted ? "true" : undefined}>
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
        {turn.blocks.map((block, index) => {
          switch (block.kind) {
            case "thought":
              return <ThoughtBlock key={index} text={block.text} streaming={streaming && index === lastIndex} />;
            case "tool":
              return <ToolCard key={block.id} block={block} />;
            case "skill":
              return (
                <div key={index} data-testid="skill-activation">
                  <Badge title={`${block.location}${block.allowedTools ? ` · tools: ${block.allowedTools.join(", ")}` : ""}`}>
                    <Sparkles />
                    Skill active: {block.name}
                  </Badge>
                </div>
              );
            case "text":
              return (
                <div key={index} data-testid="answer" data-partial={block.partial ? "true" : undefined}>
                  <AnswerText text={block.text} />
                </div>
              );
            case "prefix":
              return (
                <div key={index} data-testid="prefix-changed" className="text-[11px] text-zinc-500">
                  System prompt changed since the last turn: {block.changed.join(", ")} (the provider's prompt cache starts over).
                </div>
              );
            case "compaction":
              return <CompactionBlock key={index} turns={block.turns} summary={block.summary} skills={block.skills} forced={block.forced} />;
            case "error":
              return (
                <div
                  key={index}
                  data-testid="turn-error"
                  className={block.code === "aborted" ? "text-xs text-zinc-500" : "flex gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"}
                >
                  {block.code !== "aborted" && <TriangleAlert className="mt-0.5 size-4 shrink-0" />}
                  <span>{block.message}</span>
                </div>
              );
          }
        })}
        {streaming && turn.blocks.length === 0 && <div className="h-5 w-16 animate-pulse rounded bg-zinc-100" data-testid="waiting" />}
        {!streaming && turn.durationMs !== undefined && (
          <div className="text-[11px] text-zinc-400">
            {formatDuration(turn.durationMs)}
            {turn.usage && ` · ${turn.usage.input.toLocaleString()} in / ${turn.usage.output.toLocaleString()} out tokens${turn.usage.cached ? ` (${turn.usage.cached.toLocaleString()} cached)` : ""}`}
          </div>
        )}
      </div>
    </article>
  );
});
