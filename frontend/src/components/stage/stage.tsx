"use client";
import { Layers, MessageSquare } from "lucide-react";
import { Button } from "@/components/ui/button";
import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from "react";
import { Pane, PaneHeader } from "@/components/ui/pane";
import type { Attachment, QueueItem, SessionDetail, SkillInfo } from "@mini-openclaw/protocol";
import type { Turn } from "@/lib/turn-model";
import { useAttachments } from "@/lib/use-attachments";
import { formatCost, formatNumber } from "@/i18n/format";
import { Composer, type SlashCommand } from "./composer";
import type { TurnActions } from "./turn-controls";
import { TurnView } from "./turn-view";
import { useTranslation } from "react-i18next";

/** Turns rendered at first; earlier ones come in, a page at a time, as the reader scrolls up. */
const PAGE = 20;

interface StageProps {
  /** Changes when another session is opened. */
  sessionKey: string;
  title: string;
  turns: Turn[];
  streaming: boolean;
  loadError: string | null;
  skills: SkillInfo[];
  onSend: (text: string, attachments: Attachment[]) => void;
  onStop: () => void;
  /** While a turn runs: queue a steer into it. */
  onSteer?: (text: string) => void;
  queue?: QueueItem[];
  onRemoveQueued?: (id: string) => void;
  /** Messages Stop handed back, for the composer. */
  restored?: { text: string } | null;
  /** Summarize this session's turns for the model now; absent for a session not started yet. */
  onCompact?: () => void;
  /** The session chats without tools. */
  toolsOff: boolean;
  /** Go on without tools (offered when the model refused them). */
  onChatWithoutTools: () => void;
  /** A turn to bring into view and mark (its number in the session), e.g. a search result's. */
  highlight?: { turn: number; nonce: number } | null;
  /** Edit, regenerate, switch branch, fork: for stored turns. */
  turnActions?: TurnActions;
  /** What the session's model requests used (shown with its title). */
  usage?: SessionDetail["usage"] | null;
  /** Controls under the composer (the model picker). */
  composerToolbar?: ReactNode;
  /** The `/` menu's built-in commands. */
  commands?: SlashCommand[];
}

/** The conversation, streamed: it follows the newest output unless the reader scrolled up. */
export function Stage({ sessionKey, title, turns, streaming, loadError, skills, onSend, onStop, onSteer, queue, onRemoveQueued, restored, onCompact, toolsOff, onChatWithoutTools, highlight, turnActions, usage, composerToolbar, commands }: StageProps) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const files = useAttachments();
  const [dragging, setDragging] = useState(false);
  const [confirmCompact, setConfirmCompact] = useState(false);
  const sentinel = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const [shown, setShown] = useState(PAGE);
  const heightBeforeMore = useRef<number | null>(null);

  useEffect(() => {
    setShown(PAGE);
    pinned.current = true;
  }, [sessionKey]);

  // Keep the reader's place when earlier turns are added above.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (heightBeforeMore.current !== null) {
      el.scrollTop += el.scrollHeight - heightBeforeMore.current;
      heightBeforeMore.current = null;
    } else if (pinned.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [turns, shown]);

  // A highlighted turn is rendered (earlier pages shown as needed), then scrolled to the middle.
  const position = highlight ? turns.findIndex((t) => t.branch?.turn === highlight.turn) : -1;
  const target = position >= 0 ? highlight!.turn : null;
  useEffect(() => {
    if (target === null) return;
    const needed = turns.length - position;
    if (shown < needed) {
      setShown(needed);
      return;
    }
    pinned.current = false;
    scroller.current?.querySelector(`[data-turn-number="${target}"]`)?.scrollIntoView({ block: "center" });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per highlight (its nonce), not again on every streamed token
  }, [target, highlight?.nonce, turns.length > 0, shown]);

  const hidden = Math.max(0, turns.length - shown);
  const lastBlock = turns[turns.length - 1]?.blocks.at(-1);
  const toolsRefused = !streaming && !toolsOff && lastBlock?.kind === "error" && lastBlock.code === "tools_unsupported";
  const imagesRefused = !streaming && lastBlock?.kind === "error" && lastBlock.code === "vision_unsupported" ? turns[turns.length - 1] : null;
  const showMore = () => {
    heightBeforeMore.current = scroller.current?.scrollHeight ?? null;
    setShown((n) => n + PAGE);
  };
  useEffect(() => {
    const target = sentinel.current;
    if (!target || hidden === 0) return;
    const observer = new IntersectionObserver((entries) => entries[0]?.isIntersecting && showMore(), { root: scroller.current, rootMargin: "400px 0px 0px 0px" });
    observer.observe(target);
    return () => observer.disconnect();
  }, [hidden]);
  return (
    <Pane
      data-testid="stage"
      className="relative bg-canvas"
      // Files dropped anywhere on the Stage are attached to the message being written.
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes("Files")) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(e) => {
        setDragging(false);
        if (e.dataTransfer.files.length === 0) return;
        e.preventDefault();
        files.add(e.dataTransfer.files);
      }}
    >
      {dragging && (
        <div data-testid="drop-overlay" className="pointer-events-none absolute inset-2 z-20 flex items-center justify-center rounded-xl border-2 border-dashed border-klein/60 bg-klein-50/70 text-sm font-medium text-klein">
          {t("stage.dropFiles")}
        </div>
      )}
      <PaneHeader title={title} className="bg-white/70">
        {usage && usage.total.requests > 0 && (
          <span
            data-testid="session-usage"
            className="shrink-0 whitespace-nowrap text-[11px] text-zinc-500"
            data-tip={usage.rows
              .map((r) =>
                t("stage.usageRow", {
                  profile: r.profile,
                  model: r.model,
                  by: t(`stage.usageBy.${r.by}`),
                  input: formatNumber(r.input_tokens),
                  output: formatNumber(r.output_tokens),
                  cost: r.cost !== null ? formatCost(r.cost) : "–",
                }),
              )
              .join("\n")}
          >
            {usage.total.cost !== null && <span data-testid="session-cost">{formatCost(usage.total.cost)} · </span>}
            {t("stage.tokens", { count: usage.total.input_tokens + usage.total.output_tokens })}
          </span>
        )}
        {toolsOff && (
          <span data-testid="tools-off" className="text-[11px] text-zinc-500" data-tip={t("stage.toolsOffTip")}>
            {t("stage.toolsOff")}
          </span>
        )}
        {onCompact && turns.length > 0 && !confirmCompact && (
          <Button
            variant="ghost"
            size="sm"
            disabled={streaming}
            onClick={() => setConfirmCompact(true)}
            data-testid="compact-session"
            data-tip={t("stage.compactTip")}
          >
            <Layers /> {t("stage.compact")}
          </Button>
        )}
        {onCompact && confirmCompact && (
          // Compacting calls the model and changes what it is sent from now on: asked first.
          <span className="flex items-center gap-1 text-[12px] text-zinc-600" role="group" aria-label={t("stage.confirmCompaction")}>
            {t("stage.compactQuestion")}
            <Button
              size="sm"
              data-testid="compact-confirm"
              disabled={streaming}
              onClick={() => {
                setConfirmCompact(false);
                onCompact();
              }}
            >
              {t("stage.compact")}
            </Button>
            <Button size="sm" variant="ghost" data-testid="compact-cancel" onClick={() => setConfirmCompact(false)}>
              {t("common.cancel")}
            </Button>
          </span>
        )}
      </PaneHeader>
      <div
        ref={scroller}
        data-testid="stage-scroll"
        className="min-h-0 flex-1 overflow-y-auto"
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
        }}
      >
        <div className="mx-auto max-w-3xl space-y-8 px-5 py-6">
          {loadError && <div className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">{loadError}</div>}
          {turns.length === 0 && !loadError && (
            <div className="flex flex-col items-center gap-3 pt-24 text-center text-zinc-500">
              <MessageSquare className="size-8 text-klein/60" />
              <div className="text-base font-medium text-zinc-700">{t("stage.start")}</div>
              <div className="max-w-sm text-sm">{t("stage.startHint")}</div>
              <div className="text-sm">
                {t("stage.try")}{" "}
                <button type="button" className="rounded-full border border-zinc-200 px-3 py-1 text-zinc-700 hover:border-klein/50 hover:text-klein" onClick={() => onSend(t("stage.example"), [])} data-testid="start-example">
                  {t("stage.example")}
                </button>
              </div>
            </div>
          )}
          {hidden > 0 && (
            <div ref={sentinel} className="text-center">
              <button type="button" onClick={showMore} className="text-xs font-medium text-klein hover:underline" data-testid="show-earlier">
                {t("stage.showEarlier", { count: hidden })}
              </button>
            </div>
          )}
          {turns.slice(hidden).map((turn, i) => (
            <TurnView
              key={turn.key}
              turn={turn}
              highlighted={target !== null && turn.branch?.turn === target}
              actions={turnActions}
              busy={streaming}
              last={hidden + i === turns.length - 1}
            />
          ))}
          {imagesRefused && (
            <div className="flex items-center justify-between gap-3 rounded-lg border border-zinc-200 bg-white px-3 py-2 text-sm text-zinc-700">
              <span>{t("stage.imagesRefused")}</span>
              <Button size="sm" data-testid="send-text-alone" onClick={() => onSend(imagesRefused.user, (imagesRefused.attachments ?? []).filter((a) => a.kind !== "image"))}>
                {t("stage.sendTextAlone")}
              </Button>
            </div>
          )}
          {toolsRefused && (
            <div className="flex items-center justify-between gap-3 rounded-lg border border-zinc-200 bg-white px-3 py-2 text-sm text-zinc-700">
              <span>{t("stage.toolsRefused")}</span>
              <Button size="sm" data-testid="chat-without-tools" onClick={onChatWithoutTools}>
                {t("stage.chatWithoutTools")}
              </Button>
            </div>
          )}
        </div>
      </div>
      <Composer files={files} streaming={streaming} skills={skills} onSend={onSend} onStop={onStop} onSteer={onSteer} queue={queue} onRemoveQueued={onRemoveQueued} restored={restored} toolbar={composerToolbar} commands={commands} />
    </Pane>
  );
}
