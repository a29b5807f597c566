import { ExportResultCode } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter, SpanProcessor } from "@opentelemetry/sdk-trace";

/** Spans waiting at most; past it new ones are dropped (and counted), so a collector that is down costs bounded memory. */
export const MAX_QUEUED_SPANS = 2_048;
/** Spans sent in one export. */
const BATCH_SPANS = 512;
/** How often what waits is sent, when no batch filled up first. */
const EXPORT_EVERY_MS = 1_000;

/**
 * Ended spans on their way to the exporter, one export at a time, off the turn's path: a span ends
 * into a bounded queue and nothing waits for the collector. Spans the queue had no room for, and
 * those of an export that failed or timed out, are counted as dropped (`/api/health` shows both counts).
 */
export class SpanQueue implements SpanProcessor {
  private readonly queue: ReadableSpan[] = [];
  private sending: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  exported = 0;
  dropped = 0;

  constructor(private readonly exporter: SpanExporter) {
    this.timer = setInterval(() => void this.send(), EXPORT_EVERY_MS);
    this.timer.unref();
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.closed || this.queue.length >= MAX_QUEUED_SPANS) {
      this.dropped++;
      return;
    }
    this.queue.push(span);
    if (this.queue.length >= BATCH_SPANS) void this.send();
  }

  /** Sends what waits, a batch at a time, until nothing does (or an export is already on its way). */
  private send(): Promise<void> {
    if (this.sending || this.queue.length === 0) return this.sending ?? Promise.resolve();
    const batch = this.queue.splice(0, BATCH_SPANS);
    this.sending = new Promise<void>((resolve) => {
      this.exporter.export(batch, (result) => {
        if (result.code === ExportResultCode.SUCCESS) this.exported += batch.length;
        else this.dropped += batch.length;
        this.sending = null;
        resolve();
      });
    });
    return this.sending;
  }

  /** Sends everything queued now (each export bounded by the exporter's timeout). */
  async forceFlush(): Promise<void> {
    while (this.queue.length > 0 || this.sending) await this.send();
  }

  async shutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.forceFlush();
    this.closed = true;
    await this.exporter.shutdown();
  }
}
