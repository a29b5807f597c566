import { randomUUID } from "node:crypto";
import type { QueueItem } from "@mini-openclaw/protocol";
import { UserError } from "../lib/user-error.js";

/** More queued than this for one session is a 429: a queue is for a few next thoughts, not a batch job. */
export const MAX_QUEUED = 20;

/**
 * Messages sent to a session while its turn runs: follow-ups wait for the turn to end and run as the
 * next turns, in order; steers are taken by the running turn at its next step boundary (one not taken
 * before the turn ends runs as a follow-up).
 */
export class TurnQueue {
  private readonly items = new Map<string, QueueItem[]>();

  list(sessionId: string): QueueItem[] {
    return [...(this.items.get(sessionId) ?? [])];
  }

  add(sessionId: string, message: string, mode: QueueItem["mode"], tools = true, model?: string, attachments?: string[]): QueueItem {
    const items = this.items.get(sessionId) ?? [];
    if (items.length >= MAX_QUEUED) throw new UserError("limit_reached", `Session ${sessionId} already has ${MAX_QUEUED} queued messages; wait for the turn, or remove some.`);
    const item: QueueItem = { id: `q_${randomUUID()}`, message, mode, ...(tools ? {} : { tools: false as const }), ...(model ? { model } : {}), ...(attachments?.length ? { attachments } : {}), queued_at: Date.now() };
    this.items.set(sessionId, [...items, item]);
    return item;
  }

  remove(sessionId: string, id: string): boolean {
    const items = this.items.get(sessionId) ?? [];
    const kept = items.filter((item) => item.id !== id);
    this.set(sessionId, kept);
    return kept.length !== items.length;
  }

  hasSteer(sessionId: string): boolean {
    return (this.items.get(sessionId) ?? []).some((item) => item.mode === "steer");
  }

  /** The steers, oldest first, out of the queue. */
  takeSteers(sessionId: string): QueueItem[] {
    const items = this.items.get(sessionId) ?? [];
    this.set(sessionId, items.filter((item) => item.mode !== "steer"));
    return items.filter((item) => item.mode === "steer");
  }

  /** The oldest message left (follow-up or undelivered steer), out of the queue. */
  shift(sessionId: string): QueueItem | undefined {
    const [first, ...rest] = this.items.get(sessionId) ?? [];
    this.set(sessionId, rest);
    return first;
  }

  /** Everything, out of the queue (Stop hands it back). */
  clear(sessionId: string): QueueItem[] {
    const items = this.list(sessionId);
    this.items.delete(sessionId);
    return items;
  }

  private set(sessionId: string, items: QueueItem[]): void {
    if (items.length === 0) this.items.delete(sessionId);
    else this.items.set(sessionId, items);
  }
}
