/**
 * One JSON Lines file per session under `sessions/`. Entries are appended as they happen, one
 * write per line, so a crash loses at most the line being written; a torn last line is dropped
 * on reading and fenced off with a newline before the next append.
 */
import { appendFile, open, readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { SessionDetail, SessionEntry, SessionSummary } from "@mini-openclaw/protocol";
import { UserError } from "../lib/user-error.js";
import { SESSIONS_DIR } from "../workspace/workspace-files.js";
import { assertSessionId, isValidSessionId } from "./session-id.js";
import { foldStreamingEntries } from "./streaming-checkpoints.js";

const EXT = ".jsonl";
const TITLE_CHARS = 80;

export interface ParsedSession {
  entries: SessionEntry[];
  tornLastLine: boolean;
  corruptLines: number;
}

export function parseSessionText(text: string): ParsedSession {
  const lines = text.split("\n");
  const endsClean = text.endsWith("\n") || text === "";
  const entries: SessionEntry[] = [];
  let tornLastLine = false;
  let corruptLines = 0;
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      entries.push(JSON.parse(line) as SessionEntry);
    } catch {
      if (i === lines.length - 1 && !endsClean) tornLastLine = true;
      else corruptLines++;
    }
  });
  return { entries, tornLastLine, corruptLines };
}

const countsAsMessage = (e: SessionEntry) => e.type === "user" || (e.type === "assistant" && !e.partial);

function summarize(id: string, entries: SessionEntry[], mtime: Date): SessionSummary {
  const firstUser = entries.find((e) => e.type === "user");
  const title = firstUser ? firstUser.content.replace(/\s+/g, " ").trim().slice(0, TITLE_CHARS) : "New session";
  return { id, title: title || "New session", updated_at: mtime.toISOString(), message_count: entries.filter(countsAsMessage).length };
}

export class SessionStore {
  private readonly dir: string;
  /** Sessions whose file end was checked in this process (a torn tail is fenced once). */
  private readonly fenced = new Set<string>();
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

  /** Creates an empty session file; fails if it exists. */
  async create(id: string): Promise<void> {
    const handle = await open(this.file(id), "wx");
    await handle.close();
    this.fenced.add(id);
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
      if (!this.fenced.has(id)) {
        prefix = (await this.endsTorn(file)) ? "\n" : "";
        this.fenced.add(id);
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

  private async endsTorn(file: string): Promise<boolean> {
    const handle = await open(file, "r").catch(() => null);
    if (!handle) return false;
    try {
      const { size } = await handle.stat();
      if (size === 0) return false;
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      return last[0] !== 0x0a;
    } finally {
      await handle.close();
    }
  }

  /**
   * The session's entries, with streaming checkpoints folded (streaming-checkpoints.ts). `raw`: one
   * entry per line of the file, checkpoints included, for whoever counts lines.
   */
  async read(id: string, { raw = false }: { raw?: boolean } = {}): Promise<SessionDetail> {
    const file = this.file(id);
    let text: string;
    let mtime: Date;
    try {
      [text, mtime] = await Promise.all([readFile(file, "utf8"), stat(file).then((s) => s.mtime)]);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new UserError(404, `Unknown session: ${id}`);
      throw err;
    }
    const parsed = parseSessionText(text);
    const entries = raw ? parsed.entries : foldStreamingEntries(parsed.entries);
    return {
      ...summarize(id, entries, mtime),
      entries,
      ...(parsed.tornLastLine ? { recovered_torn_line: true } : {}),
    };
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
