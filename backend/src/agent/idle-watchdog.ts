/**
 * Fires when nothing has happened for `timeoutMs` while armed. The model client's own timeout
 * does not cover a stream that goes silent after its headers, so the turn keeps this one; it is
 * paused while tools run, since a slow tool is not a silent model.
 *
 * `touch` only notes the time (it runs once per streamed chunk); the one timer, when it fires,
 * sleeps again for whatever is left since the last touch.
 */
export class IdleWatchdog {
  private timer: NodeJS.Timeout | null = null;
  private paused = 0;
  private lastTouch = 0;

  constructor(
    private readonly timeoutMs: number,
    private readonly onIdle: () => void,
  ) {}

  touch(): void {
    this.lastTouch = performance.now();
    if (!this.timer && this.paused === 0 && this.timeoutMs > 0) this.arm(this.timeoutMs);
  }

  pause(): void {
    this.paused++;
    this.disarm();
  }

  resume(): void {
    this.paused = Math.max(0, this.paused - 1);
    this.touch();
  }

  stop(): void {
    this.disarm();
    this.paused = Number.POSITIVE_INFINITY;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.paused > 0) return;
      const idle = performance.now() - this.lastTouch;
      if (idle >= this.timeoutMs) this.onIdle();
      else this.arm(this.timeoutMs - idle);
    }, ms);
    this.timer.unref();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
