/**
 * One JSON Lines file per session under `sessions/` (format: protocol `session-entries.ts`). Entries
 * are appended as they happen, one write per line, so a crash loses at most the line being written;
 * a torn last line is dropped on reading and fenced off with a newline before the next append. A
 * file from before format version 2 gets a `header` line before its first new entry.
 */
import { appendFile, open, readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { SessionDetail, SessionEntry, SessionSummary } from "@mini-openclaw/protocol";
import { UserError } from "../lib/user-error.js";
import { SESSIONS_DIR } from "../workspace/workspace-files.js";
import { assertSessionId, isValidSessionId } from "./session-id.js";
import { parseSessionText } from "./session-format.js";

const EXT = ".jsonl";
const TITLE_CHARS = 80;

const isAnswer = (e: SessionEntry) => e.type === "user" || (e.type === "event" && e.event.type === "final");

function summarize(id: string, entries: SessionEntry[], mtime: Date): SessionSummary {
  const firstUser = entries.find((e) => e.type === "user");
  const title = firstUser ? firstUser.content.replace(/\s+/g, " ").trim().slice(0, TITLE_CHARS) : "New session";
  return { id, title: title || "New session", updated_at: mtime.toISOString(), message_count: entries.filter(isAnswer).length };
}

const HEADER = (): SessionEntry => ({ type: "header", ts: new Date().toISOString(), v: 2 });

export class SessionStore {
  private readonly dir: string;
  /** Sessions whose file was checked in this process: torn tail fenced, version-2 header present. */
  private readonly checked = new Set<string>();
  /** Appends per session are chained so lines never interleave or reorder. */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly summaries = new Map<string, { mtimeMs: number; size: number; summary: SessionSummary }>();

  constructor(dataRoot: string) {
    this.dir = join(dataRoot, SESSIONS_DIR);
  }

  private file(id: string): string {
    return join(this.dir, `${assertSessionId(id)}${EXT}`);
  }

  async exists(id: string): Promise<boolean> {
    return stat(this.file(id)).then(
      (s) => s.isFile(),
      () => false,
    );
  }

  /** Creates a session file holding only its header; fails if it exists. */
  async create(id: string): Promise<void> {
    const handle = await open(this.file(id), "wx");
    try {
      await handle.writeFile(`${JSON.stringify(HEADER())}\n`, "utf8");
    } finally {
      await handle.close();
    }
    this.checked.add(id);
  }

  append(id: string, entry: SessionEntry): Promise<void> {
    let file: string;
    try {
      file = this.file(id);
    } catch (err) {
      return Promise.reject(err);
    }
    const previous = this.chains.get(id) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(async () => {
      let prefix = "";
      if (!this.checked.has(id)) {
        prefix = await this.prefixFor(file);
        this.checked.add(id);
      }
      await appendFile(file, `${prefix}${JSON.stringify(entry)}\n`, "utf8");
    });
    this.chains.set(id, next);
    // Cleanup must not re-raise: the caller handles the rejection of `next` itself.
    const forget = () => {
      if (this.chains.get(id) === next) this.chains.delete(id);
    };
    next.then(forget, forget);
    return next;
  }

  /** Resolves once every append queued for the session has been written. */
  async flush(id: string): Promise<void> {
    await this.chains.get(id)?.catch(() => {});
  }

  /** What goes before the first append of this process: a newline after a torn tail, a header in a version-1 file. */
  private async prefixFor(file: string): Promise<string> {
    const text = await readFile(file, "utf8").catch(() => "");
    const fence = text !== "" && !text.endsWith("\n") ? "\n" : "";
    return parseSessionText(text).hasHeader ? fence : `${fence}${JSON.stringify(HEADER())}\n`;
  }

  /** The session's entries, version 2 (older lines migrated). `running`: a turn runs in it now. */
  async read(id: string, { running = false }: { running?: boolean } = {}): Promise<SessionDetail> {
    const { text, mtime } = await this.readText(id);
    const parsed = parseSessionText(text);
    return {
      ...summarize(id, parsed.entries, mtime),
      entries: parsed.entries,
      running,
      ...(parsed.tornLastLine ? { recovered_torn_line: true } : {}),
    };
  }

  /** The 1-based line range of the file that holds its last turn (from its user line on); null before the first turn. */
  async lastTurnLines(id: string): Promise<{ from: number; to: number; turn: number } | null> {
    const lines = (await this.readText(id)).text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    const isUser = (line: string) => {
      try {
        return (JSON.parse(line) as { type?: unknown }).type === "user";
      } catch {
        return false;
      }
    };
    const starts = lines.flatMap((line, i) => (isUser(line) ? [i] : []));
    if (starts.length === 0) return null;
    return { from: starts[starts.length - 1] + 1, to: lines.length, turn: starts.length };
  }

  private async readText(id: string): Promise<{ text: string; mtime: Date }> {
    const file = this.file(id);
    try {
      const [text, mtime] = await Promise.all([readFile(file, "utf8"), stat(file).then((s) => s.mtime)]);
      return { text, mtime };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new UserError(404, `Unknown session: ${id}`);
      throw err;
    }
  }

  /** Newest first. Summaries are cached per file size and mtime, so listing stays cheap. */
  async list(): Promise<SessionSummary[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
    const summaries: SessionSummary[] = [];
    for (const name of names) {
      if (!name.endsWith(EXT)) continue;
      const id = name.slice(0, -EXT.length);
      if (!isValidSessionId(id)) continue;
      const info = await stat(join(this.dir, name)).catch(() => null);
      if (!info?.isFile()) continue;
      const cached = this.summaries.get(id);
      if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) {
        summaries.push(cached.summary);
        continue;
      }
      const text = await readFile(join(this.dir, name), "utf8").catch(() => "");
      const summary = summarize(id, parseSessionText(text).entries, info.mtime);
      this.summaries.set(id, { mtimeMs: info.mtimeMs, size: info.size, summary });
      summaries.push(summary);
    }
    return summaries.sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : b.id.localeCompare(a.id)));
  }
}
