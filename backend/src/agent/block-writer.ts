/**
 * What a model writes, as the turn's blocks (protocol chat-events.ts): a thought, text, or a tool
 * call's arguments, each with an id unique in the turn, opened by `*_start`, filled by deltas, closed
 * by `*_end`. This is the one place streamed text is batched: the first delta of a run goes out at
 * once; those decoded before the event loop next comes round (the rest of one network read) go out
 * together as one delta. A model at its own pace sends each delta in its own read, so each still goes
 * out alone and as early; one that floods (tens of thousands of tokens a second) would otherwise cost
 * every reader one event per token, for text no one can read that fast.
 */
import type { ChatEvent } from "@mini-openclaw/protocol";

type DeltaKind = "token" | "thought" | "tool_input_delta";

export class BlockWriter {
  /** The text or thought block being written (a tool call's arguments are blocks of their own). */
  private open: { kind: "text" | "thought"; block: string; since: number } | null = null;
  private readonly toolBlocks = new Map<number, string>();
  private pending: { kind: DeltaKind; block: string; content: string } | null = null;
  private scheduled = false;

  constructor(
    private readonly emit: (event: ChatEvent) => void,
    private readonly newBlockId: () => string,
  ) {}

  private delta(kind: DeltaKind, block: string, content: string): void {
    if (this.pending?.kind === kind && this.pending.block === block) {
      this.pending.content += content;
      return;
    }
    this.flush();
    if (!this.scheduled) {
      // Nothing waits: this delta is the first since the loop came round, so it goes out now.
      this.send(kind, block, content);
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
      return;
    }
    this.pending = { kind, block, content };
  }

  private send(kind: DeltaKind, block: string, content: string): void {
    this.emit({ type: kind, block, content } as ChatEvent);
  }

  /** Sends what is held (before any other event, so the order holds). */
  flush(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    this.send(pending.kind, pending.block, pending.content);
  }

  /** Another event goes out now: what is held first. */
  event(event: ChatEvent): void {
    this.flush();
    this.emit(event);
  }

  private ensure(kind: "text" | "thought"): string {
    if (this.open?.kind === kind) return this.open.block;
    this.closeOpen();
    const block = this.newBlockId();
    this.open = { kind, block, since: performance.now() };
    this.event({ type: kind === "text" ? "text_start" : "thought_start", block });
    return block;
  }

  private closeOpen(): void {
    if (!this.open) return;
    const { kind, block, since } = this.open;
    this.open = null;
    this.event(kind === "text" ? { type: "text_end", block } : { type: "thought_end", block, ms: Math.round(performance.now() - since) });
  }

  text(content: string): void {
    if (content) this.delta("token", this.ensure("text"), content);
  }

  thought(content: string): void {
    if (content) this.delta("thought", this.ensure("thought"), content);
  }

  /** The last `chars` characters of the open text block were reasoning (think-tags.ts): it becomes a thought, and is closed. */
  lateThought(chars: number): void {
    if (this.open?.kind !== "text" || chars <= 0) return;
    const { block } = this.open;
    this.event({ type: "late_thought", chars, block });
    this.closeOpen();
  }

  /** A tool call's arguments begin (`index`: its place among the step's calls). */
  toolInputStart(index: number, name: string, callId: string | undefined): void {
    this.closeOpen();
    const block = this.newBlockId();
    this.toolBlocks.set(index, block);
    this.event({ type: "tool_input_start", block, name, ...(callId ? { call_id: callId } : {}) });
  }

  toolInputDelta(index: number, content: string): void {
    const block = this.toolBlocks.get(index);
    if (block && content) this.delta("tool_input_delta", block, content);
  }

  /** The step is over: every open block is closed. */
  end(): void {
    this.closeOpen();
    for (const block of this.toolBlocks.values()) this.event({ type: "tool_input_end", block });
    this.toolBlocks.clear();
    this.flush();
  }
}
