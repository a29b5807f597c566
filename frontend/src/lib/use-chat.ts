"use client";
import { type Attachment, api as contract, type ChatEvent, chatEventSchema, type QueueItem, type SessionDetail } from "@mini-openclaw/protocol";
import { i18n } from "@/i18n/language";
import { readChatFrames } from "@mini-openclaw/protocol/sse-reader";
import { useCallback, useRef, useState } from "react";
import { api } from "./api";
import { urlOf } from "./api-client";
import { applyEvent, markCompacted, newTurn, type Turn, turnsFromEntries, withBranches } from "./turn-model";

export interface ChatState {
  sessionId: string | null;
  turns: Turn[];
  /** A turn runs in the open session and this page follows it live, whoever started it. */
  streaming: boolean;
  loadError: string | null;
  /** This session chats without tools (its model takes none). */
  toolsOff: boolean;
  /** Messages waiting behind the running turn (follow-ups, steers not yet delivered). */
  queue: QueueItem[];
  /** Messages Stop handed back, for the composer (a new object each time). */
  restored: { text: string } | null;
  /** The session's model profile (null: the default), or the one a new session will start on. */
  model: string | null;
  /** The profile the next message alone goes to, when picked "for this message only". */
  onceModel: string | null;
  /** What the session's model requests used, as the server last said (all branches, helpers apart). */
  usage: SessionDetail["usage"] | null;
}

const EMPTY: ChatState = { sessionId: null, turns: [], streaming: false, loadError: null, toolsOff: false, queue: [], restored: null, model: null, onceModel: null, usage: null };

/** How long Stop waits for the turn's own `aborted` event before the page stops following. */
const STOP_GRACE_MS = 2000;

/**
 * The conversation in the Stage. A turn belongs to the server: this page starts one with
 * `POST /api/chat` and reads its stream, or follows one that runs already (after a reload, from
 * another tab) through `GET /api/sessions/:id/stream` with EventSource, which resumes by itself
 * with `Last-Event-ID`. Events carry ids, and an id already applied is never applied twice, so a
 * reconnect shows no word twice. While a turn runs, a message is queued (follow up, or steer).
 * `onTurnEnd` lets the rest of the UI refresh.
 */
export function useChat(onTurnEnd: (sessionId: string | null) => void) {
  const [state, setState] = useState<ChatState>(EMPTY);
  const sessionRef = useRef<string | null>(null);
  const toolsOffRef = useRef(false);
  const streamingRef = useRef(false);
  /** The profile for the next message only, and the one a session not yet started will start on. */
  const nextModel = useRef<{ once?: string; session?: string }>({});
  /** The stream this page reads now (a POST body or an EventSource), to let go of it. */
  const follower = useRef<{ close: () => void } | null>(null);
  /** The id of the last event applied to the running turn. */
  const lastId = useRef<number | null>(null);
  /** Bumped by every open/reset, so an answer to an older one is dropped. */
  const generation = useRef(0);

  const setStreaming = (streaming: boolean) => {
    streamingRef.current = streaming;
    setState((s) => ({ ...s, streaming }));
  };
  const updateLastTurn = (update: (turn: Turn) => Turn) =>
    setState((s) => (s.turns.length === 0 ? s : { ...s, turns: [...s.turns.slice(0, -1), update(s.turns[s.turns.length - 1])] }));

  const letGo = () => {
    follower.current?.close();
    follower.current = null;
  };

  /** One event of the running turn, applied once (by its id) to the last turn. */
  const apply = (id: number | null, event: ChatEvent) => {
    if (id !== null) {
      if (lastId.current !== null && id <= lastId.current) return;
      lastId.current = id;
    }
    if (event.type === "session" && sessionRef.current !== event.session_id) {
      sessionRef.current = event.session_id;
      setState((s) => ({ ...s, sessionId: event.session_id }));
      history.replaceState(null, "", `#session=${event.session_id}`);
      // A new session is listed while its first turn streams.
      if (event.created) onTurnEndRef.current(event.session_id);
    }
    if (event.type === "compaction") setState((s) => ({ ...s, turns: markCompacted(s.turns, event.turns) }));
    updateLastTurn((t) => applyEvent(t, event));
  };

  /**
   * The turn ended (its last event came, or there is none to follow any more): the session is read
   * again for what only the stored file has (branches, a follow-up that started).
   */
  const finished = async (sessionId: string) => {
    letGo();
    setStreaming(false);
    onTurnEndRef.current(sessionId);
    const mine = generation.current;
    const session = await api.session(sessionId).catch(() => null);
    if (!session || mine !== generation.current || sessionRef.current !== sessionId) return;
    if (session.running) {
      void openRef.current(sessionId);
      return;
    }
    setState((s) => {
      const stored = turnsFromEntries(session.entries);
      const same = s.turns.length === session.branch.length;
      // The turns just streamed learn their place in the tree; a turn that streamed nothing here is read from the file.
      const turns = same && s.turns.at(-1)?.status !== "streaming" ? withBranches(s.turns, session.branch) : withBranches(stored, session.branch);
      return { ...s, turns, queue: session.queue, usage: session.usage, model: session.model ?? null };
    });
  };

  /** Follows the session's running turn through the stream route, from after `after` (from its start when null). */
  const watch = (sessionId: string, after: number | null) => {
    letGo();
    setStreaming(true);
    const source = new EventSource(urlOf(contract.chat.stream, { id: sessionId }, { after: after !== null ? String(after) : undefined }));
    let done = false;
    const close = () => {
      done = true;
      source.close();
    };
    follower.current = { close };
    source.onmessage = (message) => {
      const parsed = chatEventSchema.safeParse(JSON.parse(message.data as string));
      if (!parsed.success || done) return;
      apply(message.lastEventId ? Number(message.lastEventId) : null, parsed.data);
      if (parsed.data.type === "final" || parsed.data.type === "error") {
        close();
        void finished(sessionId);
      }
    };
    // While CONNECTING the browser retries by itself (with Last-Event-ID); CLOSED means no turn runs any more (204).
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED && !done) {
        close();
        void finished(sessionId);
      }
    };
  };

  /** Queues a message behind the running turn. (Had the turn just ended, the server starts it as the next turn and says so: this page follows it.) */
  const queueMessage = useCallback(async (message: string, mode: QueueItem["mode"], attachments: Attachment[] = []) => {
    const id = sessionRef.current;
    if (!id) return;
    const once = nextModel.current.once;
    const reply = await api.queueMessage(id, message, mode, !toolsOffRef.current, once, attachments.map((a) => a.id));
    if (once) {
      nextModel.current.once = undefined;
      setState((s) => ({ ...s, onceModel: null }));
    }
    if (reply?.started) {
      if (sessionRef.current === id && !streamingRef.current) void openRef.current(id);
      return;
    }
    const queued = reply?.queued;
    if (!queued) return;
    setState((s) => (s.queue.some((q) => q.id === queued) ? s : { ...s, queue: [...s.queue, { id: queued, message, mode, queued_at: Date.now() }] }));
  }, []);

  /**
   * Sends a message: while a turn runs it is queued as a follow-up; otherwise it starts a turn.
   * `parentTurn` starts a branch (an edited message, a regenerated answer): the Stage keeps the turns
   * up to that one, and the session is read again after the turn for its new fork.
   */
  const send = useCallback(
    async (message: string, parentTurn?: number, attachments: Attachment[] = []) => {
      if (streamingRef.current) {
        if (parentTurn === undefined) await queueMessage(message, "follow_up", attachments);
        return;
      }
      letGo();
      const abort = new AbortController();
      follower.current = { close: () => abort.abort() };
      lastId.current = null;
      const key = `live-${Date.now()}`;
      const upTo = (turns: Turn[]) => (parentTurn === undefined ? turns : turns.slice(0, turns.findIndex((t) => t.branch?.turn === parentTurn) + 1));
      streamingRef.current = true;
      const once = nextModel.current.once;
      nextModel.current.once = undefined;
      setState((s) => ({ ...s, streaming: true, onceModel: null, turns: [...upTo(s.turns), newTurn(message, key, attachments)] }));
      let ended = false;
      try {
        const response = await fetch(urlOf(contract.chat.chat), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            message,
            session_id: sessionRef.current,
            stream: true,
            ...(toolsOffRef.current ? { tools: false } : {}),
            ...(parentTurn !== undefined ? { parent_turn: parentTurn } : {}),
            ...(once ? { model: once } : {}),
            ...(attachments.length > 0 ? { attachments: attachments.map((a) => a.id) } : {}),
            ...(!sessionRef.current && nextModel.current.session ? { session_model: nextModel.current.session } : {}),
          }),
          signal: abort.signal,
        });
        if (!response.ok || !response.body || !response.headers.get("content-type")?.includes("text/event-stream")) {
          const body = (await response.json().catch(() => null)) as { error?: string } | null;
          updateLastTurn((t) => applyEvent(t, { type: "error", code: "internal", message: body?.error ?? i18n.t("errors.serverAnswered", { status: response.status }) }));
          letGo();
          setStreaming(false);
          return;
        }
        for await (const frame of readChatFrames(response.body)) {
          apply(frame.id, frame.event);
          if (frame.event.type === "final" || frame.event.type === "error") ended = true;
        }
      } catch (err) {
        // This page let go of the stream (another session opened): the turn goes on without it.
        if (abort.signal.aborted) return;
        if (!sessionRef.current) {
          updateLastTurn((t) => applyEvent(t, { type: "error", code: "internal", message: i18n.t("errors.connectionFailed", { detail: (err as Error).message }) }));
          letGo();
          setStreaming(false);
          return;
        }
      }
      if (abort.signal.aborted) return;
      const id = sessionRef.current;
      if (ended && id) void finished(id);
      // The stream broke off before the turn's end: the turn goes on on the server; follow it from here.
      else if (id) watch(id, lastId.current);
      else {
        updateLastTurn((t) => applyEvent(t, { type: "error", code: "internal", message: i18n.t("errors.streamEnded") }));
        letGo();
        setStreaming(false);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the helpers it calls use refs and state setters only, the same in every render
    [queueMessage],
  );

  /** Stop: the server ends the turn (its stream says so) and hands the queue back to the composer. */
  const stop = useCallback(() => {
    const id = sessionRef.current;
    if (!id) {
      letGo();
      updateLastTurn((t) => (t.status === "streaming" ? applyEvent(t, { type: "error", code: "aborted", message: "Stopped." }) : t));
      setStreaming(false);
      return;
    }
    void api.stopSession(id).then(
      (reply) => {
        if (reply.queue.length > 0) setState((s) => ({ ...s, queue: [], restored: { text: reply.queue.map((q) => q.message).join("\n\n") } }));
      },
      () => {},
    );
    const mine = generation.current;
    setTimeout(() => {
      if (mine !== generation.current || !streamingRef.current || sessionRef.current !== id) return;
      letGo();
      updateLastTurn((t) => (t.status === "streaming" ? applyEvent(t, { type: "error", code: "aborted", message: "Stopped." }) : t));
      setStreaming(false);
    }, STOP_GRACE_MS);
  }, []);

  /** Loads a session (its current branch) and follows its running turn; returns the branch's turn ids, or null when it failed. */
  const open = useCallback(async (sessionId: string): Promise<number[] | null> => {
    letGo();
    const mine = ++generation.current;
    try {
      const session = await api.session(sessionId);
      if (mine !== generation.current) return null;
      sessionRef.current = sessionId;
      const lastUser = session.entries.findLast((e) => e.type === "user");
      toolsOffRef.current = lastUser?.type === "user" && lastUser.tools === false;
      let turns = withBranches(turnsFromEntries(session.entries, session.running), session.branch);
      // The running turn is replayed from the stream, from its first event: no gap, nothing twice.
      if (session.running && turns.length > 0) turns = [...turns.slice(0, -1), { ...turns[turns.length - 1], blocks: [], status: "streaming" }];
      streamingRef.current = session.running;
      lastId.current = null;
      nextModel.current = {};
      setState({ sessionId, turns, streaming: session.running, loadError: null, toolsOff: toolsOffRef.current, queue: session.queue, restored: null, model: session.model ?? null, onceModel: null, usage: session.usage });
      history.replaceState(null, "", `#session=${sessionId}`);
      if (session.running) watch(sessionId, null);
      return session.branch.map((t) => t.turn);
    } catch (err) {
      setState((s) => ({ ...s, loadError: (err as Error).message }));
      return null;
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the helpers it calls use refs and state setters only, the same in every render
  }, []);

  const openRef = useRef(open);
  openRef.current = open;
  const onTurnEndRef = useRef(onTurnEnd);
  onTurnEndRef.current = onTurnEnd;

  /** A turn started in the open session elsewhere (another tab, a queued follow-up): follow it. */
  const noticeTurn = useCallback((sessionId: string) => {
    if (sessionRef.current === sessionId && !streamingRef.current) void openRef.current(sessionId);
  }, []);

  const setQueue = useCallback((sessionId: string, items: QueueItem[]) => {
    if (sessionRef.current === sessionId) setState((s) => ({ ...s, queue: items }));
  }, []);

  const removeQueued = useCallback(async (queued: string) => {
    const id = sessionRef.current;
    if (!id) return;
    setState((s) => ({ ...s, queue: s.queue.filter((q) => q.id !== queued) }));
    await api.dequeue(id, queued).catch(() => {});
  }, []);

  /** Shows another branch: the one through `turn`, to its newest turn. */
  const switchBranch = useCallback(
    async (turn: number) => {
      const sessionId = sessionRef.current;
      if (!sessionId || streamingRef.current) return;
      await api.updateSession(sessionId, { branch: turn });
      await open(sessionId);
    },
    [open],
  );

  /** Corrects a message without running it again. */
  const saveEdit = useCallback(
    async (turn: number, content: string) => {
      const sessionId = sessionRef.current;
      if (!sessionId || streamingRef.current) return;
      await api.updateSession(sessionId, { edit: { turn, content } });
      await open(sessionId);
    },
    [open],
  );

  /** Summarizes the open session's turns for the model now; the Stage then shows the summary. */
  const compact = useCallback(async () => {
    const sessionId = sessionRef.current;
    if (!sessionId || streamingRef.current) return;
    const reply = await api.compact(sessionId);
    if (reply.compacted) await open(sessionId);
    return reply;
  }, [open]);

  /** A new chat. A turn running in the session left behind goes on; this page just stops following it. */
  const reset = useCallback(() => {
    letGo();
    generation.current++;
    sessionRef.current = null;
    toolsOffRef.current = false;
    streamingRef.current = false;
    nextModel.current = {};
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

  /**
   * Picks a model profile: for the next message only, or for the session from its next turn on (a
   * session not started yet starts on it).
   */
  const chooseModel = useCallback(async (name: string, once: boolean) => {
    if (once) {
      nextModel.current.once = name;
      setState((s) => ({ ...s, onceModel: name }));
      return;
    }
    nextModel.current.once = undefined;
    const id = sessionRef.current;
    if (id) await api.updateSession(id, { model: name });
    else nextModel.current.session = name;
    setState((s) => ({ ...s, model: name, onceModel: null }));
  }, []);

  return { ...state, send, stop, open, reset, compact, chatWithoutTools, switchBranch, saveEdit, queueMessage, removeQueued, noticeTurn, setQueue, chooseModel };
}
