/**
 * Every secret the workbench holds (model keys, the embedding key, MCP credentials, OTLP headers, the
 * database password, …) removed from text that came from outside before it becomes an event, a log
 * line, a span or a reply. Servers echo keys back in their errors, whole ("Bearer sk-…"), or cut the
 * way OpenAI prints them ("sk-proj-****abcd"); a tool's output can carry one too. All of those forms
 * are replaced here, in one place.
 */

export const SECRET_REMOVED = "[secret removed]";
/** Shorter values are not treated as secrets: removing every "admin" from text helps nobody. */
const MIN_SECRET_CHARS = 8;
/** A run this long of a secret's characters, standing alone, is that secret (a proxy that cut it). */
const MIN_PIECE_CHARS = 10;
/** Characters a printed key is masked with: `*`, bullets, an ellipsis, three dots. */
const MASK_RUN = /\*+|•+|…+|\.{3,}/;
/**
 * A word that can hold a key: its characters and the masks around them. Bounded, so a run of
 * megabytes (a long answer) is read in pieces: an unbounded run would exhaust the regexp's stack.
 */
const KEYISH_WORD = /[A-Za-z0-9_\-.~+/=*•…]{6,512}/g;

export type SecretSource = () => Iterable<string | null | undefined>;

export class SecretScrubber {
  private readonly sources: SecretSource[] = [];
  private cacheKey = "";
  private secrets: string[] = [];

  /** A place secrets come from, asked each time (keys change while the workbench runs). */
  addSource(source: SecretSource): void {
    this.sources.push(source);
  }

  /** The secrets in force now, longest first, each in the forms they may be printed in. */
  private current(): string[] {
    const values = new Set<string>();
    for (const source of this.sources) {
      for (const value of source()) {
        if (!value) continue;
        const trimmed = value.trim();
        // A header value is a scheme and a credential ("Bearer xyz"): each word counts on its own.
        for (const word of [trimmed, ...trimmed.split(/\s+/)]) if (word.length >= MIN_SECRET_CHARS) values.add(word);
      }
    }
    const key = [...values].join("\u0000");
    if (key !== this.cacheKey) {
      const forms = new Set<string>();
      for (const value of values) {
        forms.add(value);
        // As it stands inside JSON text (a log line, a reply).
        forms.add(JSON.stringify(value).slice(1, -1));
        forms.add(encodeURIComponent(value));
      }
      this.secrets = [...forms].filter((form) => form.length >= MIN_SECRET_CHARS).sort((a, b) => b.length - a.length);
      this.cacheKey = key;
    }
    return this.secrets;
  }

  /** Whether a word is a secret cut or masked the way servers print them. */
  private isPiece(word: string, secrets: string[]): boolean {
    const core = word.replace(/[.=]+$/, "").replace(/^[.=]+/, "");
    const mask = MASK_RUN.exec(core);
    if (!mask) return core.length >= MIN_PIECE_CHARS && secrets.some((secret) => secret.includes(core));
    const head = core.slice(0, mask.index);
    const tail = core.slice(core.search(/[^*•….]*$/));
    return secrets.some((secret) => {
      const headMatches = head.length > 0 && secret.startsWith(head);
      const tailMatches = tail.length > 0 && secret.endsWith(tail);
      // "sk-…abcd" (OpenAI), "sk-proj-abc…" (cut), "…wxyz1234" (the end only).
      return (headMatches && tailMatches && head.length >= 2 && tail.length >= 4) || (headMatches && head.length >= 8) || (tailMatches && tail.length >= 6 && head.length === 0);
    });
  }

  /** The text with every secret, whole or as a printed piece of it, replaced (the same string when nothing was). */
  scrub(text: string): string {
    const secrets = this.current();
    if (secrets.length === 0 || text.length < 6) return text;
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(SECRET_REMOVED);
    // A word far longer than any secret and its mask is not a piece of one (a 60 MB answer is one long word).
    const longest = secrets[0].length * 2 + 100;
    const parts: string[] = [];
    let last = 0;
    KEYISH_WORD.lastIndex = 0;
    for (let match = KEYISH_WORD.exec(out); match !== null; match = KEYISH_WORD.exec(out)) {
      const word = match[0];
      if (word.length > longest || !this.isPiece(word, secrets)) continue;
      // A sentence's full stop after the key stays; a run of dots was the key's mask.
      parts.push(out.slice(last, match.index), /[^.]\.$/.test(word) ? `${SECRET_REMOVED}.` : SECRET_REMOVED);
      last = match.index + word.length;
    }
    return parts.length === 0 ? out : parts.join("") + out.slice(last);
  }

  /** A JSON-like value with every string in it scrubbed (a new value where anything changed). */
  scrubValue<T>(value: T): T {
    if (this.current().length === 0) return value;
    return this.walk(value, 0) as T;
  }

  private walk(value: unknown, depth: number): unknown {
    if (typeof value === "string") return this.scrub(value);
    if (depth > 64 || value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((item) => {
        const next = this.walk(item, depth + 1);
        if (next !== item) changed = true;
        return next;
      });
      return changed ? out : value;
    }
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const next = this.walk(item, depth + 1);
      if (next !== item) changed = true;
      out[key] = next;
    }
    return changed ? out : value;
  }
}
