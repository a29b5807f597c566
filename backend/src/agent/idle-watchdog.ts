/**
 * Fires when nothing has happened for `timeoutMs` while armed. The model client's own timeout
 * does not cover a stream that goes silent after its headers, so the turn keeps this one; it is
 * paused while tools run, since a slow tool is not a silent model.
 */
export class IdleWatchdog {
  private timer: NodeJS.Timeout | null = null;
  private paused = 0;

  constructor(
    private readonly timeoutMs: number,
    private readonly onIdle: () => void,
  ) {}

  touch(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.paused === 0 && this.timeoutMs > 0) {
      this.timer = setTimeout(this.onIdle, this.timeoutMs);
      this.timer.unref();
    }
  }

  pause(): void {
    this.paused++;
    this.touch();
  }

  resume(): void {
    this.paused = Math.max(0, this.paused - 1);
    this.touch();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.paused = Number.POSITIVE_INFINITY;
  }
}
