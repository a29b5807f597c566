import { type Attachment, api as contract, type ChatEvent, chatEventSchema, type QueueItem, type SessionDetail } from "@mini-openclaw/protocol";
import { readChatFrames } from "@mini-openclaw/protocol/sse-reader";
import { i18n } from "@/i18n/language";
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
 * The conversation in the Stage, as a store outside React (read with `useSyncExternalStore`, see
 * use-chat.ts): the state is one immutable `ChatState`, each turn's blocks folded by the pure
 * reducer in turn-model.ts; what only the page's plumbing needs (the stream it follows, the last
 * event id) are plain fields, read where they are needed with no copy kept in step.
 *
 * A turn belongs to the server: this page starts one with `POST /api/chat` and reads its stream, or
 * follows one that runs already (after a reload, from another tab) through
 * `GET /api/sessions/:id/stream` with EventSource, which resumes by itself with `Last-Event-ID`.
 * Events carry ids, and an id already applied is never applied twice, so a reconnect shows no word
 * twice. While a turn runs, a message is queued (follow up, or steer). `onTurnEnd` lets the rest of
 * the UI refresh.
 */
export class ChatStore {
  private state: ChatState = EMPTY;
  private readonly listeners = new Set<() => void>();
  /** The profile for the next message only, and the one a session not yet started will start on. */
  private nextModel: { once?: string; session?: string } = {};
  /** The stream this page reads now (a POST body or an EventSource), to let go of it. */
  private follower: { close: () => void } | null = null;
  /** The id of the last event applied to the running turn. */
  private lastId: number | null = null;
  /** Bumped by every open/reset, so an answer to an older one is dropped. */
  private generation = 0;
  /** Told when a turn ended (or a new session was created), to refresh what the page lists. */
  onTurnEnd: (sessionId: string | null) => void = () => {};

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): ChatState => this.state;

  private update(change: (state: ChatState) => ChatState): void {
    const next = change(this.state);
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }

  private setStreaming(streaming: boolean): void {
    this.update((s) => ({ ...s, streaming }));
  }

  private updateLastTurn(change: (turn: Turn) => Turn): void {
    this.update((s) => (s.turns.length === 0 ? s : { ...s, turns: [...s.turns.slice(0, -1), change(s.turns[s.turns.length - 1])] }));
  }

  private failLastTurn(message: string, code: "internal" | "aborted" = "internal"): void {
    this.updateLastTurn((t) => applyEvent(t, { type: "error", code, message }));
    this.letGo();
    this.setStreaming(false);
  }

  private letGo(): void {
    this.follower?.close();
    this.follower = null;
  }

  /** One event of the running turn, applied once (by its id) to the last turn. */
  private apply(id: number | null, event: ChatEvent): void {
    if (id !== null) {
      if (this.lastId !== null && id <= this.lastId) return;
      this.lastId = id;
    }
    if (event.type === "session" && this.state.sessionId !== event.session_id) {
      this.update((s) => ({ ...s, sessionId: event.session_id }));
      history.replaceState(null, "", `#session=${event.session_id}`);
      // A new session is listed while its first turn streams.
      if (event.created) this.onTurnEnd(event.session_id);
    }
    if (event.type === "compaction") this.update((s) => ({ ...s, turns: markCompacted(s.turns, event.turns) }));
    this.updateLastTurn((t) => applyEvent(t, event));
  }

  /**
   * The turn ended (its last event came, or there is none to follow any more): the session is read
   * again for what only the stored file has (branches, a follow-up that started).
   */
  private async finished(sessionId: string): Promise<void> {
    this.letGo();
    this.setStreaming(false);
    this.onTurnEnd(sessionId);
    const mine = this.generation;
    const session = await api.session(sessionId).catch(() => null);
    if (!session || mine !== this.generation || this.state.sessionId !== sessionId) return;
    if (session.running) {
      void this.open(sessionId);
      return;
    }
    this.update((s) => {
      const stored = turnsFromEntries(session.entries);
      const same = s.turns.length === session.branch.length;
      // The turns just streamed learn their place in the tree; a turn that streamed nothing here is read from the file.
      const turns = same && s.turns.at(-1)?.status !== "streaming" ? withBranches(s.turns, session.branch) : withBranches(stored, session.branch);
      return { ...s, turns, queue: session.queue, usage: session.usage, model: session.model ?? null };
    });
  }

  /** Follows the session's running turn through the stream route, from after `after` (from its start when null). */
  private watch(sessionId: string, after: number | null): void {
    this.letGo();
    this.setStreaming(true);
    const source = new EventSource(urlOf(contract.chat.stream, { id: sessionId }, { after: after !== null ? String(after) : undefined }));
    let done = false;
    const close = () => {
      done = true;
      source.close();
    };
    this.follower = { close };
    source.onmessage = (message) => {
      const parsed = chatEventSchema.safeParse(JSON.parse(message.data as string));
      if (!parsed.success || done) return;
      this.apply(message.lastEventId ? Number(message.lastEventId) : null, parsed.data);
      if (parsed.data.type === "final" || parsed.data.type === "error") {
        close();
        void this.finished(sessionId);
      }
    };
    // While CONNECTING the browser retries by itself (with Last-Event-ID); CLOSED means no turn runs any more (204).
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED && !done) {
        close();
        void this.finished(sessionId);
      }
    };
  }

  /** Queues a message behind the running turn. (Had the turn just ended, the server starts it as the next turn and says so: this page follows it.) */
  readonly queueMessage = async (message: string, mode: QueueItem["mode"], attachments: Attachment[] = []): Promise<void> => {
    const id = this.state.sessionId;
    if (!id) return;
    const once = this.nextModel.once;
    const reply = await api.queueMessage(id, message, mode, !this.state.toolsOff, once, attachments.map((a) => a.id));
    if (once) {
      this.nextModel.once = undefined;
      this.update((s) => ({ ...s, onceModel: null }));
    }
    if (reply?.started) {
      if (this.state.sessionId === id && !this.state.streaming) void this.open(id);
      return;
    }
    const queued = reply?.queued;
    if (!queued) return;
    this.update((s) => (s.queue.some((q) => q.id === queued) ? s : { ...s, queue: [...s.queue, { id: queued, message, mode, queued_at: Date.now() }] }));
  };

  /**
   * Sends a message: while a turn runs it is queued as a follow-up; otherwise it starts a turn.
   * `parentTurn` starts a branch (an edited message, a regenerated answer): the Stage keeps the turns
   * up to that one, and the session is read again after the turn for its new fork.
   */
  readonly send = async (message: string, parentTurn?: number, attachments: Attachment[] = []): Promise<void> => {
    if (this.state.streaming) {
      if (parentTurn === undefined) await this.queueMessage(message, "follow_up", attachments);
      return;
    }
    this.letGo();
    const abort = new AbortController();
    this.follower = { close: () => abort.abort() };
    this.lastId = null;
    const key = `live-${Date.now()}`;
    const upTo = (turns: Turn[]) => (parentTurn === undefined ? turns : turns.slice(0, turns.findIndex((t) => t.branch?.turn === parentTurn) + 1));
    const once = this.nextModel.once;
    this.nextModel.once = undefined;
    const sessionId = this.state.sessionId;
    this.update((s) => ({ ...s, streaming: true, onceModel: null, turns: [...upTo(s.turns), newTurn(message, key, attachments)] }));
    let ended = false;
    try {
      const response = await fetch(urlOf(contract.chat.chat), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          message,
          session_id: sessionId,
          stream: true,
          ...(this.state.toolsOff ? { tools: false } : {}),
          ...(parentTurn !== undefined ? { parent_turn: parentTurn } : {}),
          ...(once ? { model: once } : {}),
          ...(attachments.length > 0 ? { attachments: attachments.map((a) => a.id) } : {}),
          ...(!sessionId && this.nextModel.session ? { session_model: this.nextModel.session } : {}),
        }),
        signal: abort.signal,
      });
      if (!response.ok || !response.body || !response.headers.get("content-type")?.includes("text/event-stream")) {
        const body = (await response.json().catch(() => null)) as { error?: string } | null;
        this.failLastTurn(body?.error ?? i18n.t("errors.serverAnswered", { status: response.status }));
        return;
      }
      for await (const frame of readChatFrames(response.body)) {
        this.apply(frame.id, frame.event);
        if (frame.event.type === "final" || frame.event.type === "error") ended = true;
      }
    } catch (err) {
      // This page let go of the stream (another session opened): the turn goes on without it.
      if (abort.signal.aborted) return;
      if (!this.state.sessionId) {
        this.failLastTurn(i18n.t("errors.connectionFailed", { detail: (err as Error).message }));
        return;
      }
    }
    if (abort.signal.aborted) return;
    const id = this.state.sessionId;
    if (ended && id) void this.finished(id);
    // The stream broke off before the turn's end: the turn goes on on the server; follow it from here.
    else if (id) this.watch(id, this.lastId);
    else this.failLastTurn(i18n.t("errors.streamEnded"));
  };

  /** Stop: the server ends the turn (its stream says so) and hands the queue back to the composer. */
  readonly stop = (): void => {
    const id = this.state.sessionId;
    const stopHere = () => {
      this.letGo();
      this.updateLastTurn((t) => (t.status === "streaming" ? applyEvent(t, { type: "error", code: "aborted", message: "Stopped." }) : t));
      this.setStreaming(false);
    };
    if (!id) return stopHere();
    void api.stopSession(id).then(
      (reply) => {
        if (reply.queue.length > 0) this.update((s) => ({ ...s, queue: [], restored: { text: reply.queue.map((q) => q.message).join("\n\n") } }));
      },
      () => {},
    );
    const mine = this.generation;
    setTimeout(() => {
      if (mine !== this.generation || !this.state.streaming || this.state.sessionId !== id) return;
      stopHere();
    }, STOP_GRACE_MS);
  };

  /** Loads a session (its current branch) and follows its running turn; returns the branch's turn ids, or null when it failed. */
  readonly open = async (sessionId: string): Promise<number[] | null> => {
    this.letGo();
    const mine = ++this.generation;
    try {
      const session = await api.session(sessionId);
      if (mine !== this.generation) return null;
      const lastUser = session.entries.findLast((e) => e.type === "user");
      const toolsOff = lastUser?.type === "user" && lastUser.tools === false;
      let turns = withBranches(turnsFromEntries(session.entries, session.running), session.branch);
      // The running turn is replayed from the stream, from its first event: no gap, nothing twice.
      if (session.running && turns.length > 0) turns = [...turns.slice(0, -1), { ...turns[turns.length - 1], blocks: [], status: "streaming" }];
      this.lastId = null;
      this.nextModel = {};
      this.update(() => ({ sessionId, turns, streaming: session.running, loadError: null, toolsOff, queue: session.queue, restored: null, model: session.model ?? null, onceModel: null, usage: session.usage }));
      history.replaceState(null, "", `#session=${sessionId}`);
      if (session.running) this.watch(sessionId, null);
      return session.branch.map((t) => t.turn);
    } catch (err) {
      this.update((s) => ({ ...s, loadError: (err as Error).message }));
      return null;
    }
  };

  /** A turn started in the open session elsewhere (another tab, a queued follow-up): follow it. */
  readonly noticeTurn = (sessionId: string): void => {
    if (this.state.sessionId === sessionId && !this.state.streaming) void this.open(sessionId);
  };

  readonly setQueue = (sessionId: string, items: QueueItem[]): void => {
    if (this.state.sessionId === sessionId) this.update((s) => ({ ...s, queue: items }));
  };

  readonly removeQueued = async (queued: string): Promise<void> => {
    const id = this.state.sessionId;
    if (!id) return;
    this.update((s) => ({ ...s, queue: s.queue.filter((q) => q.id !== queued) }));
    await api.dequeue(id, queued).catch(() => {});
  };

  /** The open session, when no turn streams in it (branch switches, edits and compaction wait for the turn). */
  private idleSession(): string | null {
    return this.state.sessionId && !this.state.streaming ? this.state.sessionId : null;
  }

  /** Shows another branch: the one through `turn`, to its newest turn. */
  readonly switchBranch = async (turn: number): Promise<void> => {
    const sessionId = this.idleSession();
    if (!sessionId) return;
    await api.updateSession(sessionId, { branch: turn });
    await this.open(sessionId);
  };

  /** Corrects a message without running it again. */
  readonly saveEdit = async (turn: number, content: string): Promise<void> => {
    const sessionId = this.idleSession();
    if (!sessionId) return;
    await api.updateSession(sessionId, { edit: { turn, content } });
    await this.open(sessionId);
  };

  /** Summarizes the open session's turns for the model now; the Stage then shows the summary. */
  readonly compact = async () => {
    const sessionId = this.idleSession();
    if (!sessionId) return;
    const reply = await api.compact(sessionId);
    if (reply.compacted) await this.open(sessionId);
    return reply;
  };

  /** A new chat. A turn running in the session left behind goes on; this page just stops following it. */
  readonly reset = (): void => {
    this.letGo();
    this.generation++;
    this.nextModel = {};
    this.update(() => EMPTY);
    history.replaceState(null, "", location.pathname);
  };

  /** The model takes no tools: this session goes on without them, starting with the message it refused. */
  readonly chatWithoutTools = (): void => {
    this.update((s) => ({ ...s, toolsOff: true }));
    const refused = this.state.turns[this.state.turns.length - 1];
    if (refused) void this.send(refused.user);
  };

  /**
   * Picks a model profile: for the next message only, or for the session from its next turn on (a
   * session not started yet starts on it).
   */
  readonly chooseModel = async (name: string, once: boolean): Promise<void> => {
    if (once) {
      this.nextModel.once = name;
      this.update((s) => ({ ...s, onceModel: name }));
      return;
    }
    this.nextModel.once = undefined;
    const id = this.state.sessionId;
    if (id) await api.updateSession(id, { model: name });
    else this.nextModel.session = name;
    this.update((s) => ({ ...s, model: name, onceModel: null }));
  };
}
