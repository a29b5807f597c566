/**
 * A settings file at the top of the data root (settings-files.ts), as every one of them behaves: read
 * at start, capped and confined (never through a link), JSON checked against its schema and its own
 * rules, watched; a broken file is reported (`problem`), never rewritten, and the last good value
 * stays in force; writes go one at a time, are refused while the file is broken, and replace the file
 * atomically. The model profiles and the tasks use it; the next settings files (hooks, web) too.
 */
import type { z } from "zod";
import { UserError } from "../lib/user-error.js";
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { FolderWatcher } from "../paths/folder-watcher.js";
import { isUnreadable, readConfinedTextIfPresent } from "../paths/read-confined-file.js";

export type Parsed<T> = { value: T } | { problem: string };

/**
 * A file's text as JSON of `schema`, or the problem a user can act on: the file, where in it, and
 * what is wrong (the first issue; `hint` may add how to fix it).
 */
export function parseJsonFile<S extends z.ZodType>(name: string, text: string, schema: S, hint?: (issue: z.core.$ZodIssue) => string): Parsed<z.output<S>> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { problem: `${name} is not valid JSON (${(err as Error).message})` };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { value: parsed.data };
  const issue = parsed.error.issues[0];
  return { problem: `${name}: ${issue.path.join(".") || "(top)"}: ${issue.message}${hint?.(issue) ?? ""}` };
}

export interface WatchedJsonFileOptions<T> {
  dataRoot: string;
  /** The file's name at the data root (settings-files.ts). */
  name: string;
  maxBytes: number;
  /** The text as a value, or why it cannot be used (`parseJsonFile` and the file's own rules). */
  parse: (text: string) => Parsed<T>;
  /** The value while there is no file. */
  missing: T;
  /** What a problem goes on to say stays in force ("the last good tasks keep running"). */
  lastGood: string;
  log: { warn(obj: object, msg: string): void };
  /** The value or the problem changed (the file, or a write). */
  onChange: () => void;
  /** Watch the file (off in tests that call `reload()`). */
  watch?: boolean;
}

export class WatchedJsonFile<T> {
  private current: T;
  private problemText: string | null = null;
  private present = false;
  private watcher: FolderWatcher | null = null;
  private reloading: Promise<void> = Promise.resolve();
  private writing: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: WatchedJsonFileOptions<T>) {
    this.current = options.missing;
  }

  async start(): Promise<void> {
    // Watched first, then read: a write in between is then seen by one or the other.
    if (this.options.watch !== false) {
      this.watcher = new FolderWatcher(this.options.dataRoot, { rootNames: [this.options.name], pollMs: 2_000, debounceMs: 100, onChange: () => void this.reload() });
    }
    await this.reload();
  }

  close(): void {
    this.watcher?.close();
  }

  /** The value in force: the file's, or the last good one while it is broken. */
  get value(): T {
    return this.current;
  }

  /** Whether there is something at the file's name (a file, or something that cannot be read as one). */
  get exists(): boolean {
    return this.present;
  }

  /** Why the file is not in force as written, or null. */
  get problem(): string | null {
    return this.problemText;
  }

  /** Reads the file again: a good file replaces the value, a broken one leaves the last good one in force. */
  reload(): Promise<void> {
    this.reloading = this.reloading.then(() => this.read()).catch((err) => this.options.log.warn({ err }, `${this.options.name} reload failed`));
    return this.reloading;
  }

  private async read(): Promise<void> {
    const { dataRoot, name, maxBytes } = this.options;
    let text: string | null;
    try {
      text = await readConfinedTextIfPresent(dataRoot, name, maxBytes);
    } catch (err) {
      this.present = true;
      return this.setProblem(`${name} cannot be read (${isUnreadable(err) ? err.message : (err as Error).message})`);
    }
    this.present = text !== null;
    const result = text === null ? { value: this.options.missing } : this.options.parse(text);
    if ("problem" in result) return this.setProblem(result.problem);
    const changed = this.problemText !== null || JSON.stringify(result.value) !== JSON.stringify(this.current);
    this.current = result.value;
    this.problemText = null;
    if (changed) this.options.onChange();
  }

  private setProblem(problem: string): void {
    const text = `${problem}; ${this.options.lastGood} until it is fixed`;
    if (text === this.problemText) return;
    this.problemText = text;
    this.options.onChange();
  }

  /**
   * Runs `change` on a copy of the value in force and writes what it returns; refused (409) while the
   * file is broken: it is the user's to fix. `change` may refuse (throw) or do what must come first.
   */
  write(change: (value: T) => T | Promise<T>, render: (value: T) => string = (value) => `${JSON.stringify(value, null, 2)}\n`): Promise<T> {
    const run = this.writing.then(async () => {
      await this.reloading;
      if (this.problemText) throw new UserError("conflict", `${this.problemText.split(";")[0]}: fix the file first (it is never rewritten over a mistake).`);
      const next = await change(structuredClone(this.current));
      await writeConfinedAtomic(this.options.dataRoot, this.options.name, render(next));
      this.current = next;
      this.options.onChange();
      return next;
    });
    this.writing = run.catch(() => {});
    return run;
  }
}
