"use client";
import { readChatEvents } from "@mini-openclaw/protocol/sse-reader";
import { useCallback, useRef, useState } from "react";
import { api } from "./api";
import { applyEvent, markCompacted, newTurn, type Turn, turnsFromEntries, withBranches } from "./turn-model";

export interface ChatState {
  sessionId: string | null;
  turns: Turn[];
  streaming: boolean;
  loadError: string | null;
  /** This session chats without tools (its model takes none). */
  toolsOff: boolean;
  /** A turn runs in the open session without this page's stream (after a reload, or started elsewhere). */
  runningElsewhere: boolean;
}

const EMPTY: ChatState = { sessionId: null, turns: [], streaming: false, loadError: null, toolsOff: false, runningElsewhere: false };

/**
 * The conversation in the Stage: sends a turn over SSE, applies its events as they arrive, stops
 * it on demand, and loads past sessions. `onTurnEnd` lets the rest of the UI refresh.
 */
export function useChat(onTurnEnd: (sessionId: string | null) => void) {
  const [state, setState] = useState<ChatState>(EMPTY);
  const controller = useRef<AbortController | null>(null);
  const sessionRef = useRef<string | null>(null);
  const toolsOffRef = useRef(false);

  const updateLastTurn = (update: (turn: Turn) => Turn) =>
    setState((s) => ({ ...s, turns: [...s.turns.slice(0, -1), update(s.turns[s.turns.length - 1])] }));

  /**
   * Sends a message. `parentTurn` starts a branch (an edited message, a regenerated answer): the Stage
   * keeps the turns up to that one, and the session is reloaded after the turn for its new fork.
   */
  const send = useCallback(
    async (message: string, parentTurn?: number) => {
      if (controller.current) return;
      const abort = new AbortController();
      controller.current = abort;
      const key = `live-${Date.now()}`;
      const upTo = (turns: Turn[]) => (parentTurn === undefined ? turns : turns.slice(0, turns.findIndex((t) => t.branch?.turn === parentTurn) + 1));
      setState((s) => ({ ...s, streaming: true, turns: [...upTo(s.turns), newTurn(message, key)] }));
      try {
        const response = await fetch("/api/chat", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            message,
            session_id: sessionRef.current,
            stream: true,
            ...(toolsOffRef.current ? { tools: false } : {}),
            ...(parentTurn !== undefined ? { parent_turn: parentTurn } : {}),
          }),
          signal: abort.signal,
        });
        if (!response.ok || !response.body || !response.headers.get("content-type")?.includes("text/event-stream")) {
          const body = (await response.json().catch(() => null)) as { error?: string } | null;
          updateLastTurn((t) => applyEvent(t, { type: "error", code: "internal", message: body?.error ?? `The server answered ${response.status}.` }));
          return;
        }
        for await (const event of readChatEvents(response.body)) {
          if (event.type === "session") {
            sessionRef.current = event.session_id;
            setState((s) => ({ ...s, sessionId: event.session_id }));
            history.replaceState(null, "", `#session=${event.session_id}`);
          }
          if (event.type === "compaction") setState((s) => ({ ...s, turns: markCompacted(s.turns, event.turns) }));
          updateLastTurn((t) => applyEvent(t, event));
        }
        updateLastTurn((t) =>
          t.status === "streaming" ? applyEvent(t, { type: "error", code: "internal", message: "The stream ended without an answer." }) : t,
        );
      } catch (err) {
        const stopped = abort.signal.aborted;
        updateLastTurn((t) =>
          applyEvent(t, {
            type: "error",
            code: stopped ? "aborted" : "internal",
            message: stopped ? "Stopped." : `The connection to the server failed: ${(err as Error).message}`,
          }),
        );
      } finally {
        controller.current = null;
        setState((s) => ({ ...s, streaming: false }));
        onTurnEnd(sessionRef.current);
        const id = sessionRef.current;
        if (parentTurn !== undefined && id && !abort.signal.aborted) void openRef.current(id);
        else if (id) {
          // The turns just streamed learn their place in the session's tree (for edit, regenerate, fork).
          void api.session(id).then(
            (session) => sessionRef.current === id && setState((s) => (s.turns.length === session.branch.length ? { ...s, turns: withBranches(s.turns, session.branch) } : s)),
            () => {},
          );
        }
      }
    },
    [onTurnEnd],
  );

  /** Stop: the server ends the turn (a turn waiting for approval outlives a closed stream), then the stream goes. */
  const stop = useCallback(() => {
    const id = sessionRef.current;
    const stopping = id ? api.stopSession(id).catch(() => {}) : Promise.resolve();
    void stopping.finally(() => controller.current?.abort());
  }, []);

  /** Loads a session (its current branch); returns the numbers of the branch's turns, or null when it failed. */
  const open = useCallback(async (sessionId: string): Promise<number[] | null> => {
    controller.current?.abort();
    try {
      const session = await api.session(sessionId);
      sessionRef.current = sessionId;
      const lastUser = session.entries.findLast((e) => e.type === "user");
      toolsOffRef.current = lastUser?.type === "user" && lastUser.tools === false;
      const turns = withBranches(turnsFromEntries(session.entries, session.running), session.branch);
      setState({ sessionId, turns, streaming: false, loadError: null, toolsOff: toolsOffRef.current, runningElsewhere: session.running });
      history.replaceState(null, "", `#session=${sessionId}`);
      // A turn runs there without this page's stream (opened after a reload, or from another tab): look again
      // until it ends, so an approval decided here, and what follows it, shows up.
      if (session.running) {
        setTimeout(() => {
          if (sessionRef.current === sessionId && !controller.current) void openRef.current(sessionId);
        }, 1500);
      }
      return session.branch.map((t) => t.turn);
    } catch (err) {
      setState((s) => ({ ...s, loadError: (err as Error).message }));
      return null;
    }
  }, []);

  const openRef = useRef(open);
  openRef.current = open;

  /** Shows another branch: the one through `turn`, to its newest turn. */
  const switchBranch = useCallback(
    async (turn: number) => {
      const sessionId = sessionRef.current;
      if (!sessionId || controller.current) return;
      await api.updateSession(sessionId, { branch: turn });
      await open(sessionId);
    },
    [open],
  );

  /** Corrects a message without running it again. */
  const saveEdit = useCallback(
    async (turn: number, content: string) => {
      const sessionId = sessionRef.current;
      if (!sessionId || controller.current) return;
      await api.updateSession(sessionId, { edit: { turn, content } });
      await open(sessionId);
    },
    [open],
  );

  /** Summarizes the open session's turns for the model now; the Stage then shows the summary. */
  const compact = useCallback(async () => {
    const sessionId = sessionRef.current;
    if (!sessionId || controller.current) return;
    const reply = await api.compact(sessionId);
    if (reply.compacted) await open(sessionId);
    return reply;
  }, [open]);

  const reset = useCallback(() => {
    controller.current?.abort();
    sessionRef.current = null;
    toolsOffRef.current = false;
    setState(EMPTY);
    history.replaceState(null, "", location.pathname);
  }, []);

  /** The model takes no tools: this session goes on without them, starting with the message it refused. */
  const chatWithoutTools = useCallback(() => {
    toolsOffRef.current = true;
    setState((s) => ({ ...s, toolsOff: true }));
    const refused = state.turns[state.turns.length - 1];
    if (refused) void send(refused.user);
  }, [send, state.turns]);

  return { ...state, send, stop, open, reset, compact, chatWithoutTools, switchBranch, saveEdit };
}
