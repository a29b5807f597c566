import type { ChatEvent, NumberedEvent } from "@mini-openclaw/protocol";
import { sseFrame } from "../http/sse.js";

/** An event as it went out, with its SSE frame made once for every reader. */
export interface SentEvent extends NumberedEvent {
  frame: string;
}

export type TurnListener = (event: SentEvent) => void;

/**
 * A turn as it runs, apart from whoever started it: every event it sent, numbered, kept until it
 * ends, so any number of readers can join at any point and get the rest in order. The turn's own
 * `AbortController` is the only way to end it early (Stop, the server shutting down).
 */
export class LiveTurn {
  readonly events: SentEvent[] = [];
  readonly controller = new AbortController();
  private readonly listeners = new Set<{ onEvent: TurnListener; onEnd: () => void }>();
  private finished = false;
  private resolveDone!: () => void;
  /** Resolves when the turn's last event was sent. */
  readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve));

  constructor(
    readonly sessionId: string,
    private readonly nextId: () => number,
  ) {}

  get ended(): boolean {
    return this.finished;
  }

  get firstId(): number | null {
    return this.events[0]?.id ?? null;
  }

  /** Numbers the event (unless it was numbered already), keeps it, and hands it to every reader; returns its id. */
  emit(event: ChatEvent, id = this.nextId()): number {
    const numbered = { id, event, frame: sseFrame(event, id) };
    this.events.push(numbered);
    for (const listener of this.listeners) listener.onEvent(numbered);
    return numbered.id;
  }

  has(id: number): boolean {
    const first = this.firstId;
    if (first === null || id < first || id > this.events[this.events.length - 1].id) return false;
    return this.events.some((e) => e.id === id);
  }

  /**
   * Replays the events after `afterId` (all of them when null), then delivers the rest as they
   * happen; `onEnd` once the turn ended (at once if it already had). Returns the way to leave.
   */
  subscribe(afterId: number | null, onEvent: TurnListener, onEnd: () => void): () => void {
    for (const numbered of this.events) if (afterId === null || numbered.id > afterId) onEvent(numbered);
    if (this.finished) {
      onEnd();
      return () => {};
    }
    const listener = { onEvent, onEnd };
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The turn sent its last event. */
  end(): void {
    if (this.finished) return;
    this.finished = true;
    for (const listener of this.listeners) listener.onEnd();
    this.listeners.clear();
    this.resolveDone();
  }
}
