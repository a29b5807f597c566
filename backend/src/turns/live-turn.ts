import type { ChatEvent, NumberedEvent } from "@mini-openclaw/protocol";

/**
 * What follows a turn in the process, each on its own (the session recorder, the trace exporter):
 * every event as it is sent, in order, and the end.
 */
export interface TurnSubscriber {
  event(numbered: NumberedEvent): void;
  end?(): void;
}

/**
 * A turn as it runs, apart from whoever started it: one stream of numbered events. Subscribers in the
 * process hear each event as it is sent; readers (a browser's stream) pull them through a cursor at
 * their own pace, from any point, so a slow one falls behind without holding a copy. Every event is
 * kept until the turn ends. The turn's own `AbortController` is the only way to end it early (Stop,
 * the server shutting down).
 */
export class LiveTurn {
  readonly events: NumberedEvent[] = [];
  readonly controller = new AbortController();
  private readonly watchers = new Set<() => void>();
  private readonly subscribers = new Set<TurnSubscriber>();
  private finished = false;
  private resolveDone!: () => void;
  /** Resolves when the turn's last event was sent. */
  readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve));

  constructor(
    readonly sessionId: string,
    private readonly nextId: () => number,
    /** What every event passes through before anyone hears it (the secret scrubber). */
    private readonly clean: (event: ChatEvent) => ChatEvent = (event) => event,
  ) {}

  get ended(): boolean {
    return this.finished;
  }

  get firstId(): number | null {
    return this.events[0]?.id ?? null;
  }

  /** Numbers the event (unless it was numbered already), keeps it, and tells subscribers, then readers; returns its id. */
  emit(event: ChatEvent, id = this.nextId()): number {
    const numbered = { id, event: this.clean(event) };
    this.events.push(numbered);
    for (const subscriber of this.subscribers) subscriber.event(numbered);
    for (const changed of this.watchers) changed();
    return id;
  }

  /** Hears every event from now on, and the end (at once, if the turn has ended already); returns the way to stop. */
  subscribe(subscriber: TurnSubscriber): () => void {
    if (this.finished) {
      subscriber.end?.();
      return () => {};
    }
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  has(id: number): boolean {
    const first = this.firstId;
    if (first === null || id < first || id > this.events[this.events.length - 1].id) return false;
    return this.events.some((e) => e.id === id);
  }

  /** A reader's place: the events after `afterId` (all of them when null), then the rest as they come. */
  cursor(afterId: number | null): TurnCursor {
    const index = afterId === null ? 0 : this.events.findIndex((e) => e.id > afterId);
    return new TurnCursor(this, index === -1 ? this.events.length : index);
  }

  /** Calls `changed` when an event is added and when the turn ends; returns the way to stop. */
  watch(changed: () => void): () => void {
    this.watchers.add(changed);
    return () => this.watchers.delete(changed);
  }

  /** The turn sent its last event. */
  end(): void {
    if (this.finished) return;
    this.finished = true;
    for (const subscriber of this.subscribers) subscriber.end?.();
    this.subscribers.clear();
    for (const changed of this.watchers) changed();
    this.watchers.clear();
    this.resolveDone();
  }
}

export class TurnCursor {
  constructor(
    private readonly turn: LiveTurn,
    private index: number,
  ) {}

  /** The events not taken yet, up to `max`, in order. */
  take(max = Number.POSITIVE_INFINITY): NumberedEvent[] {
    const taken = this.turn.events.slice(this.index, this.index + Math.min(max, this.turn.events.length - this.index));
    this.index += taken.length;
    return taken;
  }

  /** Everything the turn will ever send was taken. */
  get done(): boolean {
    return this.turn.ended && this.index >= this.turn.events.length;
  }
}
