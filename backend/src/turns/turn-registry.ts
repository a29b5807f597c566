import type { ChatEvent, QueueItem } from "@mini-openclaw/protocol";
import type { FastifyBaseLogger } from "fastify";
import { SHUTDOWN_REASON, STOPPED_REASON } from "../agent/model-errors.js";
import { UserError } from "../lib/user-error.js";
import type { UiEventBus } from "../ui-events/ui-event-bus.js";
import { EventIdClock } from "./event-ids.js";
import { summarizeTurn } from "./turn-summary.js";
import { LiveTurn } from "./live-turn.js";
import { TurnQueue } from "./turn-queue.js";


/** How long shutdown waits for the stopped turns to write their last event. */
const SHUTDOWN_WAIT_MS = 10_000;

/** What a running turn asks at each step boundary: did the user steer, and with what. */
export interface Steering {
  pending(): boolean;
  take(): QueueItem[];
}

/** A turn that passed its checks and holds its session, ready to run (chat-turn.ts `prepareTurn`). */
export interface StartableTurn {
  sessionId: string;
  /** Runs to the turn's `final` or `error`; `emit` numbers (unless given an id) and delivers each event, and returns its id. */
  run(emit: (event: ChatEvent, id?: number) => number, signal: AbortSignal, steering: Steering): Promise<void>;
  /** Lets the session go (once the turn ended, or when it never ran). */
  release(): void;
}

export interface TurnRegistryOptions {
  ui: UiEventBus;
  log: FastifyBaseLogger;
  /** Prepares a queued message as the session's next turn (the same checks as `POST /api/chat`). */
  prepareQueued(sessionId: string, item: QueueItem): Promise<StartableTurn>;
}

/**
 * Every turn the workbench runs, by session. A turn belongs to the workbench, not to the request that
 * started it: it runs to its end whether or not anyone reads it, and any number of readers can join
 * (`LiveTurn.subscribe`). Only Stop, the server shutting down, or the turn's own limits end it early.
 * When it ends, the session's queued follow-ups run as its next turns.
 */
export class TurnRegistry {
  /** Sessions held by a turn (from its checks to its end, and between a turn and its follow-up) or a compaction. */
  readonly busy = new Set<string>();
  readonly ids = new EventIdClock();
  private readonly live = new Map<string, LiveTurn>();
  private readonly queue = new TurnQueue();
  private closing = false;

  constructor(private readonly options: TurnRegistryOptions) {}

  /** The turn running in the session now, if any. */
  running(sessionId: string): LiveTurn | undefined {
    return this.live.get(sessionId);
  }

  queued(sessionId: string): QueueItem[] {
    return this.queue.list(sessionId);
  }

  /** Queues a message behind the session's running turn. */
  enqueue(sessionId: string, message: string, mode: QueueItem["mode"], tools = true): QueueItem {
    const item = this.queue.add(sessionId, message, mode, tools);
    this.publishQueue(sessionId);
    return item;
  }

  dequeue(sessionId: string, id: string): boolean {
    const removed = this.queue.remove(sessionId, id);
    if (removed) this.publishQueue(sessionId);
    return removed;
  }

  /** Ends the session's turn as stopped, and hands back its queue (emptied, so nothing follows). */
  stop(sessionId: string): QueueItem[] | null {
    const turn = this.live.get(sessionId);
    if (!turn) return null;
    const handedBack = this.queue.clear(sessionId);
    this.publishQueue(sessionId);
    turn.controller.abort(STOPPED_REASON);
    return handedBack;
  }

  /** Runs a prepared turn with no reader attached; readers join through the returned LiveTurn. */
  start(turn: StartableTurn): LiveTurn {
    const { sessionId } = turn;
    const live = new LiveTurn(sessionId, () => this.ids.next());
    const startedAt = performance.now();
    this.live.set(sessionId, live);
    const steering: Steering = {
      pending: () => this.queue.hasSteer(sessionId),
      take: () => {
        const steers = this.queue.takeSteers(sessionId);
        if (steers.length) this.publishQueue(sessionId);
        return steers;
      },
    };
    const emit = (event: ChatEvent, id?: number) => {
      const numbered = live.emit(event, id);
      // Every open page learns of the turn once its session file exists (its `session` event).
      if (event.type === "session") this.options.ui.publish({ type: "turn", session_id: sessionId, running: true, turn: event.turn });
      return numbered;
    };
    void turn
      .run(emit, live.controller.signal, steering)
      .catch((err) => {
        this.options.log.error({ err, sessionId }, "chat turn crashed");
        emit({ type: "error", code: "internal", message: "The turn failed unexpectedly; the details are in the server log." });
      })
      .finally(() => {
        this.live.delete(sessionId);
        live.end();
        // One line per turn at info level (requests are at debug): what a person reading the log wants to see.
        this.options.log.info(summarizeTurn(sessionId, live.events.map((e) => e.event), performance.now() - startedAt), "turn finished");
        turn.release();
        this.options.ui.publish({ type: "turn", session_id: sessionId, running: false });
        this.options.ui.publish({ type: "refresh", target: "sessions" });
        void this.runNext(sessionId);
      });
    return live;
  }

  /** The oldest queued message runs as the session's next turn (one that cannot run is dropped, with a toast). */
  private async runNext(sessionId: string): Promise<void> {
    while (!this.closing && !this.busy.has(sessionId)) {
      const item = this.queue.shift(sessionId);
      if (!item) return;
      this.publishQueue(sessionId);
      try {
        this.start(await this.options.prepareQueued(sessionId, item));
        return;
      } catch (err) {
        this.options.log.warn({ err, sessionId }, "a queued message could not run");
        this.options.ui.toast(`A queued message could not run: ${(err as Error).message}`, "warning");
      }
    }
  }

  /** Holds the session for a turn about to start, or for another job that must not overlap a turn. */
  claim(sessionId: string, conflict: string): void {
    if (this.closing) throw new UserError(503, "The workbench is shutting down.");
    if (this.busy.has(sessionId)) throw new UserError(409, conflict);
    this.busy.add(sessionId);
  }

  release(sessionId: string): void {
    this.busy.delete(sessionId);
  }

  /** The server is closing: queues are dropped, every turn is stopped, and each is written to its end. */
  async shutdown(): Promise<void> {
    this.closing = true;
    const turns = [...this.live.values()];
    for (const turn of turns) {
      this.queue.clear(turn.sessionId);
      turn.controller.abort(SHUTDOWN_REASON);
    }
    // A turn that does not wind down (a tool deaf to its abort) must not hold the server open for ever.
    const limit = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref());
    await Promise.race([Promise.all(turns.map((turn) => turn.done)), limit]);
  }

  private publishQueue(sessionId: string): void {
    this.options.ui.publish({ type: "queue", session_id: sessionId, items: this.queue.list(sessionId) });
  }
}

export function busyConflict(sessionId: string): string {
  return `A turn is already running in session ${sessionId}; wait for it, stop it, or queue the message (queue: "follow_up" or "steer").`;
}
