"use client";
import { useEffect, useState, useSyncExternalStore } from "react";
import { ChatStore } from "./chat-store";

export type { ChatState } from "./chat-store";

/**
 * The conversation in the Stage (lib/chat-store.ts) for a component: its state, and its actions,
 * which keep their identity for the page's life. `onTurnEnd` lets the rest of the UI refresh.
 */
export function useChat(onTurnEnd: (sessionId: string | null) => void) {
  const [store] = useState(() => new ChatStore());
  useEffect(() => {
    store.onTurnEnd = onTurnEnd;
  }, [store, onTurnEnd]);
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const { send, stop, open, reset, compact, chatWithoutTools, switchBranch, saveEdit, queueMessage, removeQueued, noticeTurn, setQueue, chooseModel } = store;
  return { ...state, send, stop, open, reset, compact, chatWithoutTools, switchBranch, saveEdit, queueMessage, removeQueued, noticeTurn, setQueue, chooseModel };
}
