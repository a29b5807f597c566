/**
 * Every secret the workbench holds (model keys, the embedding key, MCP credentials, OTLP headers, the
 * database password, …) removed from text that came from outside before it becomes an event, a log
 * line, a span or a reply. Servers echo keys back in their errors, whole ("Bearer sk-…"), cut to a
 * prefix (a proxy), or masked the way OpenAI prints them ("sk-proj-****abcd"); a tool's output can
 * carry one too. All of those forms are replaced here, in one place.
 *
 * Every reply and event passes through here, so the text is not tokenized whole: only the words
 * around a secret's first characters or a mask character are looked at (a 6 MB session reply with
 * neither costs a few `indexOf` scans).
 */

export const SECRET_REMOVED = "[secret removed]";
/** Shorter values are not treated as secrets: removing every "admin" from text helps nobody. */
const MIN_SECRET_CHARS = 8;
/** A secret's first characters this long, standing alone, are that secret (a proxy that cut it). */
const MIN_PREFIX_CHARS = 10;
/** Characters a printed key is masked with: `*`, bullets, an ellipsis, three dots. */
const MASK_RUN = /\*+|•+|…+|\.{3,}/;
const MASKS = ["*", "•", "…", "..."];
/** A word that can hold a key: its characters and the masks around them. */
const KEYISH = /[A-Za-z0-9_\-.~+/=*•…]/;
/** How far a word is followed from where it was found (a key and its mask are far shorter). */
const MAX_WORD = 512;

export type SecretSource = () => Iterable<string | null | undefined>;

export class SecretScrubber {
  private readonly sources: SecretSource[] = [];
  private cacheKey = "";
  private secrets: string[] = [];
  /** Each secret's first three characters: where a printed piece of it starts. */
  private starts: string[] = [];

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
      this.starts = [...new Set(this.secrets.map((secret) => secret.slice(0, 3)))];
      this.cacheKey = key;
    }
    return this.secrets;
  }

  /** Whether a word is a secret cut or masked the way servers print them. */
  private isPiece(word: string, secrets: string[]): boolean {
    // The word without dots and `=` at its ends (a sentence's full stop, base64 padding).
    let from = 0;
    let to = word.length;
    while (from < to && (word[from] === "." || word[from] === "=")) from++;
    while (to > from && (word[to - 1] === "." || word[to - 1] === "=")) to--;
    const core = word.slice(from, to);
    const mask = MASK_RUN.exec(core);
    if (!mask) return core.length >= MIN_PREFIX_CHARS && secrets.some((secret) => secret.startsWith(core));
    const head = core.slice(0, mask.index);
    const tail = core.slice(core.search(/[^*•….]*$/));
    return secrets.some((secret) => {
      const headMatches = head.length > 0 && secret.startsWith(head);
      const tailMatches = tail.length > 0 && secret.endsWith(tail);
      // "sk-…abcd" (OpenAI), "sk-proj-abc…" (cut), "…wxyz1234" (the end only).
      return (headMatches && tailMatches && head.length >= 2 && tail.length >= 4) || (headMatches && head.length >= 8) || (tailMatches && tail.length >= 6 && head.length === 0);
    });
  }

  /** The word (a run of key characters) around `at`, as [start, end), each side followed at most MAX_WORD characters. */
  private static wordAround(text: string, at: number): [number, number] {
    let start = at;
    let end = at;
    while (start > 0 && at - start < MAX_WORD && KEYISH.test(text[start - 1])) start--;
    while (end < text.length && end - at < MAX_WORD && KEYISH.test(text[end])) end++;
    return [start, end];
  }

  /** The text with every secret, whole or as a printed piece of it, replaced (the same string when nothing was). */
  scrub(text: string): string {
    return this.scrubWith(text, this.current());
  }

  private scrubWith(text: string, secrets: string[]): string {
    if (secrets.length === 0 || text.length < 6) return text;
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(SECRET_REMOVED);
    // Where a piece can be: at a secret's first characters, or at a mask.
    const pieces = new Map<number, number>();
    for (const needle of [...this.starts, ...MASKS]) {
      for (let at = out.indexOf(needle); at !== -1; at = out.indexOf(needle, at + needle.length)) {
        const [start, end] = SecretScrubber.wordAround(out, at);
        if (end - start >= 6 && !pieces.has(start) && this.isPiece(out.slice(start, end), secrets)) pieces.set(start, end);
        // A long run of one mask (or a long word) is looked at once.
        at = Math.max(at, end - needle.length);
      }
    }
    if (pieces.size === 0) return out;
    const parts: string[] = [];
    let last = 0;
    for (const [start, end] of [...pieces].sort((a, b) => a[0] - b[0])) {
      if (start < last) continue;
      // A sentence's full stop after the key stays; a run of dots was the key's mask.
      parts.push(out.slice(last, start), /[^.]\.$/.test(out.slice(start, end)) ? `${SECRET_REMOVED}.` : SECRET_REMOVED);
      last = end;
    }
    return parts.join("") + out.slice(last);
  }

  /** A JSON-like value with every string in it scrubbed (a new value where anything changed). */
  scrubValue<T>(value: T): T {
    const secrets = this.current();
    return secrets.length === 0 ? value : (this.walk(value, secrets, 0) as T);
  }

  /** Every event passes here: nothing is copied unless a string in it changed. */
  private walk(value: unknown, secrets: string[], depth: number): unknown {
    if (typeof value === "string") return this.scrubWith(value, secrets);
    if (depth > 64 || value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const next = this.walk(value[i], secrets, depth + 1);
        if (next !== value[i]) (out ??= [...value])[i] = next;
      }
      return out ?? value;
    }
    let out: Record<string, unknown> | undefined;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const next = this.walk(record[key], secrets, depth + 1);
      if (next !== record[key]) (out ??= { ...record })[key] = next;
    }
    return out ?? value;
  }
}
