"use client";
import { User } from "lucide-react";
import { memo, useState } from "react";
import type { Turn } from "@/lib/turn-model";
import { cn } from "@/lib/utils";
import { formatCost, formatDuration, formatNumber } from "@/i18n/format";
import { AttachmentChips } from "./attachment-chips";
import { Button } from "@/components/ui/button";
import { BlockList } from "./block-list";
import { AnswerButtons, BranchSwitcher, EditButton, MessageEditor, type TurnActions } from "./turn-controls";
import { useTranslation } from "react-i18next";

/** What Continue sends: the stopped answer is in the history the model gets, so it can pick up from there. */

interface TurnViewProps {
  turn: Turn;
  highlighted?: boolean;
  /** Absent for a turn not stored yet (it streams, or its session has not been reloaded). */
  actions?: TurnActions;
  /** A turn streams in this session: nothing may branch now. */
  busy?: boolean;
  /** The branch's last turn: a stopped one offers to continue. */
  last?: boolean;
}

/** One turn: the user's message, then everything the agent did, in the order it happened. */
export const TurnView = memo(function TurnView({ turn, highlighted = false, actions, busy = false, last = false }: TurnViewProps) {
  const { t } = useTranslation();
  const streaming = turn.status === "streaming";
  const lastBlock = turn.blocks.at(-1);
  const stopped = turn.status === "stopped" || (lastBlock?.kind === "error" && lastBlock.code === "aborted");
  const [editing, setEditing] = useState(false);
  const branch = turn.branch;
  return (
    <article
      className={cn("turn group/turn space-y-3", highlighted && "-mx-3 rounded-xl px-3 py-2 ring-2 ring-amber-300 bg-amber-50/40")}
      data-testid="turn"
      data-turn-number={branch?.turn}
      data-highlighted={highlighted ? "true" : undefined}
      data-status={turn.status}
      data-compacted={turn.compacted ? "true" : undefined}
    >
      {turn.compacted && (
        <div className="text-[11px] font-medium tracking-wide text-amber-700 uppercase" data-tip={t("turn.inSummaryTip")}>
          {t("turn.inSummary")}
        </div>
      )}
      <div className="flex items-start justify-end gap-1">
        {editing && branch && actions ? (
          <MessageEditor
            text={turn.user}
            onCancel={() => setEditing(false)}
            onSend={(text) => {
              setEditing(false);
              actions.send(text, branch.parent);
            }}
            onSave={(text) => {
              setEditing(false);
              actions.save(branch.turn, text);
            }}
          />
        ) : (
          <>
            <div className="mt-1 flex items-center gap-0.5">
              {branch && actions && <BranchSwitcher branch={branch} busy={busy} onSwitch={actions.switchTo} />}
              {branch && actions && (
                <span className="opacity-0 transition-opacity group-hover/turn:opacity-100 focus-within:opacity-100 pointer-coarse:opacity-100">
                  <EditButton busy={busy} onEdit={() => setEditing(true)} />
                </span>
              )}
            </div>
            <div className="flex max-w-[85%] items-start gap-2">
              <div className="flex flex-col items-end gap-0.5">
                <div data-testid="user-message" className="whitespace-pre-wrap rounded-2xl rounded-tr-sm bg-klein px-3.5 py-2 text-[14.5px] text-white shadow-sm">
                  {turn.user}
                </div>
                {turn.attachments && <AttachmentChips attachments={turn.attachments} />}
                {turn.edited && (
                  <span className="text-[10px] text-zinc-500" data-testid="message-edited" data-tip={t("turn.editedTip")}>
                    {t("turn.edited")}
                  </span>
                )}
              </div>
              <User className="mt-1.5 size-4 shrink-0 text-zinc-500" />
            </div>
          </>
        )}
      </div>
      <div className="space-y-2.5 pl-1" data-testid="assistant">
        <BlockList blocks={turn.blocks} streaming={streaming} />
        {streaming && turn.blocks.length === 0 && <div className="h-5 w-16 animate-pulse rounded bg-zinc-100" data-testid="waiting" />}
        {last && stopped && branch && actions && (
          <Button variant="outline" size="sm" disabled={busy} data-testid="continue-turn" onClick={() => actions.send(t("turn.continueMessage"), branch.turn)} data-tip={t("turn.continueTip")}>
            {t("turn.continue")}
          </Button>
        )}
        {!streaming && turn.durationMs !== undefined && (
          <div className="text-[11px] text-zinc-500" data-testid="turn-footer">
            {formatDuration(turn.durationMs)}
            {turn.model && <span data-testid="turn-model">{` · ${turn.model.profile && turn.model.profile !== "default" ? `${turn.model.profile} (${turn.model.name})` : turn.model.name}`}</span>}
            {turn.usage && ` · ${t("turn.usage", { input: formatNumber(turn.usage.input), output: formatNumber(turn.usage.output) })}`}
            {turn.usage?.cached ? ` ${t("turn.cached", { cached: formatNumber(turn.usage.cached) })}` : ""}
            {turn.usage?.cost !== undefined && <span data-testid="turn-cost">{` · ${formatCost(turn.usage.cost)}`}</span>}
            {branch && actions && <AnswerButtons branch={branch} user={turn.user} busy={busy} actions={actions} />}
          </div>
        )}
      </div>
    </article>
  );
});
