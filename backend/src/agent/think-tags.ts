const OPEN = "<think>";
const CLOSE = "</think>";

/** How much of `text`'s end could be the start of `tag` (a tag split across chunks). */
function partialTagAt(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) if (text.endsWith(tag.slice(0, n))) return n;
  return 0;
}

/**
 * Splits streamed content into reasoning and answer where a model writes its reasoning between
 * `<think>` and `</think>` in the content itself (Qwen3, DeepSeek-R1 distills and others, on a
 * server without a reasoning parser). Tags may arrive split across chunks: a piece that could be
 * the start of a tag is held until the next one. A `<think>` counts only before any answer text of
 * the step, so an answer that talks about the tag is left as written.
 */
export class ThinkTagSplitter {
  private inThink = false;
  private answered = false;
  private held = "";

  /** The reasoning and the answer text in this piece (either may be empty). */
  push(piece: string): { thought: string; text: string } {
    let rest = this.held + piece;
    this.held = "";
    let thought = "";
    let text = "";
    while (rest) {
      if (this.inThink) {
        const end = rest.indexOf(CLOSE);
        if (end >= 0) {
          thought += rest.slice(0, end);
          rest = rest.slice(end + CLOSE.length);
          this.inThink = false;
          continue;
        }
        const keep = partialTagAt(rest, CLOSE);
        thought += rest.slice(0, rest.length - keep);
        this.held = rest.slice(rest.length - keep);
        break;
      }
      if (this.answered) {
        text += rest;
        break;
      }
      const start = rest.indexOf(OPEN);
      const before = start >= 0 ? rest.slice(0, start) : rest;
      if (start >= 0 && before.trim() === "") {
        rest = rest.slice(start + OPEN.length);
        this.inThink = true;
        continue;
      }
      // No tag yet: whitespace may still precede one; anything else is the answer.
      const keep = partialTagAt(rest, OPEN);
      const visible = rest.slice(0, rest.length - keep);
      if (visible.trim() !== "") {
        this.answered = true;
        text += rest;
        break;
      }
      this.held = rest;
      break;
    }
    return { thought, text };
  }

  /** What is still held at the end of the stream (a partial tag that never completed). */
  end(): { thought: string; text: string } {
    const held = this.held;
    this.held = "";
    return this.inThink ? { thought: held, text: "" } : { thought: "", text: held };
  }
}
