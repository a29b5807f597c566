"use client";
import type { BranchTurn } from "@mini-openclaw/protocol";
import { BookmarkPlus, ChevronLeft, Repeat, ChevronRight, GitBranch, History, Pencil, RotateCcw } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ActionIcons, MoreMenu, type MoreMenuItem } from "@/components/ui/more-menu";
import { useTranslation } from "react-i18next";

/** What a stored turn offers: edit its message or regenerate its answer (both as a new branch), switch branch, fork. */
export interface TurnActions {
  send(text: string, parentTurn: number): void;
  /** Correct a message without running it again. */
  save(turn: number, text: string): void;
  switchTo(turn: number): void;
  fork(turn: number): void;
  /** Go back to before this turn: its (and later turns') file changes, the conversation, or both (asks first). */
  rewind(turn: number): void;
  /** Ask the memory helper for a skill made from this turn's steps (a proposal to review). */
  saveAsSkill(turn: number): void;
  /** Run this turn again (another profile, today's prompt, tools recorded or live), then compare (asks first). */
  replay(turn: number): void;
}

const icon = "rounded p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-700 disabled:opacity-40";

/** `‹ 2/3 ›` where the session forks: the other turns that follow the same one. */
export function BranchSwitcher({ branch, busy, onSwitch }: { branch: BranchTurn; busy: boolean; onSwitch: (turn: number) => void }) {
  const { t } = useTranslation();
  const at = branch.siblings.indexOf(branch.turn);
  if (branch.siblings.length < 2 || at < 0) return null;
  return (
    <div className="flex items-center gap-0.5 text-[11px] text-zinc-500" data-testid="branch-switcher">
      <button type="button" className={icon} aria-label={t("turn.previousBranch")} data-testid="branch-prev" disabled={busy || at === 0} onClick={() => onSwitch(branch.siblings[at - 1])}>
        <ChevronLeft className="size-3.5" />
      </button>
      <span data-testid="branch-position" className="tabular-nums">
        {at + 1}/{branch.siblings.length}
      </span>
      <button
        type="button"
        className={icon}
        aria-label={t("turn.nextBranch")}
        data-testid="branch-next"
        disabled={busy || at === branch.siblings.length - 1}
        onClick={() => onSwitch(branch.siblings[at + 1])}
      >
        <ChevronRight className="size-3.5" />
      </button>
    </div>
  );
}

/** The user's message in place, editable: sending it starts a branch from the turn before. */
export function MessageEditor({ text, onSend, onSave, onCancel }: { text: string; onSend: (text: string) => void; onSave: (text: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(text);
  const send = () => draft.trim() && onSend(draft);
  return (
    <div className="w-full max-w-[85%] space-y-1.5">
      <textarea
        autoFocus
        data-testid="edit-input"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey) {
            e.preventDefault();
            send();
          }
          if (e.key === "Escape") onCancel();
        }}
        rows={Math.min(8, Math.max(2, draft.split("\n").length))}
        className="w-full resize-y rounded-xl border border-klein-100 bg-white px-3 py-2 text-[14.5px] outline-none focus:ring-2 focus:ring-klein-100"
      />
      <div className="flex justify-end gap-1.5">
        <Button variant="ghost" size="sm" onClick={onCancel} data-testid="edit-cancel">
          {t("common.cancel")}
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => draft.trim() && onSave(draft)}
          disabled={!draft.trim() || draft === text}
          data-testid="edit-save"
          data-tip={t("turn.saveOnlyTip")}
        >
          {t("turn.saveOnly")}
        </Button>
        <Button size="sm" onClick={send} disabled={!draft.trim()} data-testid="edit-send" data-tip={t("turn.sendAsBranchTip")}>
          {t("turn.sendAsBranch")}
        </Button>
      </div>
    </div>
  );
}

/** Edit (on the message), and regenerate and fork (under the answer). */
export function EditButton({ busy, onEdit }: { busy: boolean; onEdit: () => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" className={icon} data-tip={t("turn.editTip")} aria-label={t("turn.edit")} data-testid="edit-message" disabled={busy} onClick={onEdit}>
      <Pencil className="size-3.5" />
    </button>
  );
}

export function AnswerButtons({ branch, user, busy, actions }: { branch: BranchTurn; user: string; busy: boolean; actions: TurnActions }) {
  const { t } = useTranslation();
  const items: MoreMenuItem[] = [
    { label: t("turn.regenerate"), tip: t("turn.regenerateTip"), icon: <RotateCcw />, disabled: busy, onSelect: () => actions.send(user, branch.parent), testId: "menu-regenerate", buttonTestId: "regenerate" },
    { label: t("turn.fork"), tip: t("turn.forkTip"), icon: <GitBranch />, disabled: busy, onSelect: () => actions.fork(branch.turn), testId: "menu-fork", buttonTestId: "fork-turn" },
    { label: t("rewind.title"), tip: t("turn.rewindTip"), icon: <History />, disabled: busy, onSelect: () => actions.rewind(branch.turn), testId: "menu-rewind", buttonTestId: "rewind-turn" },
    { label: t("turn.replay"), tip: t("turn.replayTip"), icon: <Repeat />, disabled: busy, onSelect: () => actions.replay(branch.turn), testId: "menu-replay", buttonTestId: "replay-turn" },
    { label: t("turn.saveAsSkill"), tip: t("turn.saveAsSkillTip"), icon: <BookmarkPlus />, disabled: busy, onSelect: () => actions.saveAsSkill(branch.turn), testId: "menu-save-skill", buttonTestId: "save-as-skill" },
  ];
  return (
    <>
      {/* On a touch screen or a narrow window: one "⋯" that opens them as a menu with their names. */}
      <MoreMenu className="ml-1 hidden max-md:inline-block pointer-coarse:inline-block" testId="turn-more" up label={t("turn.more")} items={items} />
      <span data-testid="answer-buttons" className="ml-2 inline-flex items-center gap-0.5 opacity-0 transition-opacity group-hover/turn:opacity-100 focus-within:opacity-100 max-md:hidden pointer-coarse:hidden">
        <ActionIcons items={items} className={icon} />
      </span>
    </>
  );
}
