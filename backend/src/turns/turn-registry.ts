import type { ChatEvent, QueueItem } from "@mini-openclaw/protocol";
import { SHUTDOWN_REASON, STOPPED_REASON } from "../agent/model-errors.js";
import { UserError } from "../lib/user-error.js";
import { EventIdClock } from "./event-ids.js";
import { LiveTurn } from "./live-turn.js";
import { TurnQueue } from "./turn-queue.js";

/** How long shutdown waits for the stopped turns to write their last event. */
const SHUTDOWN_WAIT_MS = 10_000;

/** What a running turn asks at each step boundary: did the user steer, and with what. */
export interface Steering {
  pending(): boolean;
  take(): QueueItem[];
}

export interface TurnRegistryOptions {
  /** A session's queue changed (a message queued, taken back, taken by its turn, or handed back). */
  onQueueChange?(sessionId: string, items: QueueItem[]): void;
  /** What every event of every turn passes through before it is stored, sent or traced (the secret scrubber). */
  cleanEvent?(event: ChatEvent): ChatEvent;
}

/**
 * Every turn the workbench runs, by session, and what waits behind it: the sessions held (one turn at
 * a time), the live turns readers join, the queued messages, the clock of event ids. It runs nothing
 * itself: the chat layer opens a turn here, runs it, and closes it.
 */
export class TurnRegistry {
  /** Sessions held by a turn (from its checks to its end, and between a turn and its follow-up) or a compaction. */
  private readonly held = new Set<string>();
  readonly ids = new EventIdClock();
  private readonly live = new Map<string, LiveTurn>();
  private readonly queue = new TurnQueue();
  private closing = false;

  constructor(private readonly options: TurnRegistryOptions = {}) {}

  /** Whether the session is held (`claim`) by a turn, from its checks to its end, or by a compaction. */
  isHeld(sessionId: string): boolean {
    return this.held.has(sessionId);
  }

  /** The turn running in the session now, if any. */
  running(sessionId: string): LiveTurn | undefined {
    return this.live.get(sessionId);
  }

  get shuttingDown(): boolean {
    return this.closing;
  }

  queued(sessionId: string): QueueItem[] {
    return this.queue.list(sessionId);
  }

  /** Queues a message behind the session's running turn. */
  enqueue(sessionId: string, message: string, mode: QueueItem["mode"], tools = true, model?: string, attachments?: string[]): QueueItem {
    const item = this.queue.add(sessionId, message, mode, tools, model, attachments);
    this.queueChanged(sessionId);
    return item;
  }

  dequeue(sessionId: string, id: string): boolean {
    const removed = this.queue.remove(sessionId, id);
    if (removed) this.queueChanged(sessionId);
    return removed;
  }

  /** The oldest queued message, taken out (the session's next turn). */
  shiftQueued(sessionId: string): QueueItem | undefined {
    const item = this.queue.shift(sessionId);
    if (item) this.queueChanged(sessionId);
    return item;
  }

  /** What a running turn asks at its step boundaries. */
  steering(sessionId: string): Steering {
    return {
      pending: () => this.queue.hasSteer(sessionId),
      take: () => {
        const steers = this.queue.takeSteers(sessionId);
        if (steers.length) this.queueChanged(sessionId);
        return steers;
      },
    };
  }

  /** A new turn of the session, live from now on (the session is held already). */
  open(sessionId: string): LiveTurn {
    const live = new LiveTurn(sessionId, () => this.ids.next(), this.options.cleanEvent);
    this.live.set(sessionId, live);
    return live;
  }

  /** The turn sent its last event: readers read to its end, and it is no longer the session's running turn. */
  close(live: LiveTurn): void {
    if (this.live.get(live.sessionId) === live) this.live.delete(live.sessionId);
    live.end();
  }

  /** Ends the session's turn as stopped, and hands back its queue (emptied, so nothing follows). */
  stop(sessionId: string): QueueItem[] | null {
    const turn = this.live.get(sessionId);
    if (!turn) return null;
    const handedBack = this.queue.clear(sessionId);
    this.queueChanged(sessionId);
    turn.controller.abort(STOPPED_REASON);
    return handedBack;
  }

  /** Holds the session for a turn about to start, or for another job that must not overlap a turn. */
  claim(sessionId: string, conflict: string): void {
    if (this.closing) throw new UserError("unavailable", "The workbench is shutting down.");
    if (this.held.has(sessionId)) throw new UserError("conflict", conflict);
    this.held.add(sessionId);
  }

  release(sessionId: string): void {
    this.held.delete(sessionId);
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

  private queueChanged(sessionId: string): void {
    this.options.onQueueChange?.(sessionId, this.queue.list(sessionId));
  }
}

export function busyConflict(sessionId: string): string {
  return `A turn is already running in session ${sessionId}; wait for it, stop it, or queue the message (queue: "follow_up" or "steer").`;
}
