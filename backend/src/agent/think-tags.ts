const OPEN = "<think>";
const CLOSE = "</think>";

/** How much of `text`'s end could be the start of `tag` (a tag split across chunks). */
function partialTagAt(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) if (text.endsWith(tag.slice(0, n))) return n;
  return 0;
}

/** What a piece of content holds: reasoning, answer text, and how much already-streamed text turned out to be reasoning. */
export interface SplitPiece {
  thought: string;
  text: string;
  /** Characters of answer text streamed earlier in the step that were reasoning (a lone `</think>` came). */
  lateThought: number;
}

/**
 * Splits streamed content into reasoning and answer where a model writes its reasoning between
 * `<think>` and `</think>` in the content itself (Qwen3, QwQ, DeepSeek-R1 distills and others, on a
 * server without a reasoning parser). Tags may arrive split across chunks: a piece that could be the
 * start of a tag is held until the next one. A `<think>` counts only before any answer text of the
 * step, so an answer that talks about the tag is left as written.
 *
 * Many of these models' chat templates open `<think>` themselves, so the content starts inside the
 * reasoning and only `</think>` shows where it ends. Until the step's reasoning is settled, text
 * streams as answer; a first `</think>` with no `<think>` before it turns everything streamed so far
 * into reasoning (`lateThought`), once.
 */
export class ThinkTagSplitter {
  private inThink = false;
  /** A `<think>` or a lone `</think>` was seen: tags after it are text. */
  private settled = false;
  private answered = false;
  /** Answer text streamed while the reasoning was not settled: what a lone `</think>` turns into reasoning. */
  private unsettledText = 0;
  private held = "";

  push(piece: string): SplitPiece {
    let rest = this.held + piece;
    this.held = "";
    const out: SplitPiece = { thought: "", text: "", lateThought: 0 };
    while (rest) {
      if (this.inThink) {
        const end = rest.indexOf(CLOSE);
        if (end >= 0) {
          out.thought += rest.slice(0, end);
          rest = rest.slice(end + CLOSE.length);
          this.inThink = false;
          continue;
        }
        const keep = partialTagAt(rest, CLOSE);
        out.thought += rest.slice(0, rest.length - keep);
        this.held = rest.slice(rest.length - keep);
        break;
      }
      if (this.settled) {
        out.text += rest;
        break;
      }
      const close = rest.indexOf(CLOSE);
      const open = this.answered ? -1 : rest.indexOf(OPEN);
      if (open >= 0 && (close < 0 || open < close) && rest.slice(0, open).trim() === "") {
        rest = rest.slice(open + OPEN.length);
        this.inThink = true;
        this.settled = true;
        continue;
      }
      if (close >= 0) {
        // The template opened the reasoning: all of it so far, streamed as text, was reasoning.
        out.lateThought = this.unsettledText;
        out.thought += rest.slice(0, close);
        this.unsettledText = 0;
        rest = rest.slice(close + CLOSE.length);
        this.settled = true;
        continue;
      }
      const keep = Math.max(partialTagAt(rest, CLOSE), this.answered ? 0 : partialTagAt(rest, OPEN));
      const visible = rest.slice(0, rest.length - keep);
      if (!this.answered && visible.trim() === "") {
        this.held = rest; // whitespace may still precede a tag
        break;
      }
      this.answered = true;
      out.text += visible;
      this.unsettledText += visible.length;
      this.held = rest.slice(rest.length - keep);
      break;
    }
    return out;
  }

  /** What is still held at the end of the stream (a partial tag that never completed). */
  end(): SplitPiece {
    const held = this.held;
    this.held = "";
    return this.inThink ? { thought: held, text: "", lateThought: 0 } : { thought: "", text: held, lateThought: 0 };
  }
}
