/**
 * Keeps the head and the tail of a stream of text within a character cap: a build log's error is
 * usually at its end, a listing's point at its start. Counts everything it drops.
 */
export class OutputCap {
  private head = "";
  private tail = "";
  private total = 0;

  constructor(private readonly maxChars: number) {}

  push(chunk: string): void {
    this.total += chunk.length;
    const headRoom = Math.floor(this.maxChars * 0.7) - this.head.length;
    if (headRoom > 0) {
      this.head += chunk.slice(0, headRoom);
      chunk = chunk.slice(headRoom);
    }
    if (chunk.length === 0) return;
    const tailMax = this.maxChars - Math.floor(this.maxChars * 0.7);
    this.tail = (this.tail + chunk).slice(-tailMax);
  }

  get truncated(): boolean {
    return this.total > this.head.length + this.tail.length;
  }

  get totalChars(): number {
    return this.total;
  }

  text(): string {
    if (!this.truncated) return this.head + this.tail;
    const dropped = this.total - this.head.length - this.tail.length;
    return `${this.head}\n\n[... output truncated: ${dropped} of ${this.total} characters omitted ...]\n\n${this.tail}`;
  }
}
