import type { ChatEvent } from "@mini-openclaw/protocol";

type DeltaType = "token" | "thought";

/**
 * Text and reasoning deltas as events, joined while the model floods: the first delta of a run goes
 * out at once; those decoded before the event loop next comes round (the rest of one network read,
 * or of the streaming loop's 8 ms slice) go out together as one event. A model at its own pace
 * sends each delta in its own read, so each still goes out alone and as early; one that floods
 * (tens of thousands of tokens a second) would otherwise cost every reader of the turn one event
 * per token, each numbered, framed and parsed, for text no one can read that fast.
 *
 * `flush()` before any other event keeps the order; the text is the same, only cut differently.
 */
export class DeltaCoalescer {
  private pending: { type: DeltaType; content: string } | null = null;
  private scheduled = false;

  constructor(private readonly emit: (event: ChatEvent) => void) {}

  push(type: DeltaType, content: string): void {
    if (this.pending?.type === type) {
      this.pending.content += content;
      return;
    }
    this.flush();
    if (!this.scheduled) {
      // Nothing waits: this delta is the first since the loop came round, so it goes out now.
      this.emit({ type, content });
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
      return;
    }
    this.pending = { type, content };
  }

  flush(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    this.emit({ type: pending.type, content: pending.content });
  }
}
