"use client";
import { useCallback, useMemo, useRef, useState } from "react";
import { i18n } from "@/i18n/language";
import { api } from "@/lib/api";
import type { useChat } from "@/lib/use-chat";
import type { SessionActions } from "../sidebar/sessions-view";
import type { TurnActions } from "../stage/turn-controls";
import type { useToasts } from "../ui/toaster";

type Chat = ReturnType<typeof useChat>;
type ShowToast = ReturnType<typeof useToasts>["show"];

/**
 * What the user does to sessions (open, new, rename, pin, delete with undo, import) and to a turn
 * (send again, edit, switch branch, rewind, fork), with the search hit the Stage marks and the turn
 * a Rewind was asked for. A failure is a toast; the lists are read again after a change.
 */
export function useSessionActions(chat: Chat, refreshLists: () => void, showToast: ShowToast) {
  /** A search result opened: the Stage shows and marks that turn. */
  const [highlight, setHighlight] = useState<{ turn: number; query: string; nonce: number } | null>(null);
  /** The turn a Rewind was asked for (its dialog is open). */
  const [rewindTurn, setRewindTurn] = useState<number | null>(null);
  /** The turn a Replay was asked for (its dialog is open). */
  const [replayTurn, setReplayTurn] = useState<number | null>(null);
  const failed = useCallback((err: unknown) => showToast((err as Error).message, "warning"), [showToast]);
  const { send, switchBranch, saveEdit, open, reset, sessionId } = chat;

  const sessionActions: SessionActions = {
    onOpen: (id, at) => {
      setHighlight(at ? { ...at, nonce: Date.now() } : null);
      void open(id).then((onBranch) => {
        // A search hit on another branch: show that branch.
        if (at && onBranch && !onBranch.includes(at.turn)) void switchBranch(at.turn);
      });
    },
    onNew: () => {
      setHighlight(null);
      reset();
    },
    onRename: (id, title) => void api.updateSession(id, { title }).then(refreshLists, failed),
    onPin: (id, pinned) => void api.updateSession(id, { pinned }).then(refreshLists, failed),
    onDelete: (session) =>
      void api.deleteSession(session.id).then(({ trash }) => {
        if (sessionId === session.id) reset();
        refreshLists();
        showToast(i18n.t("sessions.toast.deleted", { title: session.title }), "info", {
          label: i18n.t("common.undo"),
          run: () => void api.restoreSession(session.id, trash).then(refreshLists, failed),
        });
      }, failed),
    onImport: (file) =>
      void file
        .text()
        .then((text) => api.importSession(JSON.parse(text)))
        .then((summary) => {
          refreshLists();
          void open(summary.id);
          showToast(i18n.t("sessions.toast.imported", { title: summary.title }));
        }, (err: Error) => failed(err instanceof SyntaxError ? new Error(i18n.t("sessions.toast.notJson", { name: file.name, detail: err.message })) : err)),
  };
  /** For callbacks made once (the palette's search) that must act with the page's latest state. */
  const latest = useRef(sessionActions);
  latest.current = sessionActions;

  const turnActions = useMemo<TurnActions>(
    () => ({
      send: (text, parentTurn) => void send(text, parentTurn),
      save: (turn, text) => void saveEdit(turn, text).catch(failed),
      switchTo: (turn) => void switchBranch(turn).catch(failed),
      rewind: (turn) => setRewindTurn(turn),
      replay: (turn) => setReplayTurn(turn),
      saveAsSkill: (turn) => {
        if (!sessionId) return;
        void api.saveAsSkill(sessionId, turn).then(() => showToast(i18n.t("proposals.saveAsSkillStarted", { turn })), failed);
      },
      fork: (turn) => {
        if (!sessionId) return;
        void api.forkSession(sessionId, turn).then((summary) => {
          refreshLists();
          void open(summary.id);
          showToast(i18n.t("sessions.toast.forked", { title: summary.title }));
        }, failed);
      },
    }),
    [send, switchBranch, saveEdit, open, sessionId, refreshLists, showToast, failed],
  );

  return { sessionActions, latestSessionActions: latest, turnActions, highlight, rewindTurn, setRewindTurn, replayTurn, setReplayTurn, failed };
}
