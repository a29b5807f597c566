/**
 * One JSON Lines file per session under `sessions/` (format: protocol `session-entries.ts`). Entries
 * are appended as they happen, one write per line, so a crash loses at most the line being written;
 * a torn last line is dropped on reading and fenced off with a newline before the next append. A
 * file from before format version 2 gets a `header` line before its first new entry.
 */
import { appendFile, link, mkdir, open, readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { QueueItem, SessionDetail, SessionEntry, SessionSummary } from "@mini-openclaw/protocol";
import { UserError } from "../lib/user-error.js";
import { SESSIONS_DIR } from "../config/data-root-layout.js";
import { assertSessionId } from "./session-id.js";
import { parseSessionText } from "./session-format.js";
import { branchTurns, entriesOnBranch, hasTurn, type TurnTree, turnTree } from "./session-branches.js";
import { type IndexedSession, SESSION_EXT as EXT, SessionIndex, summarize } from "./session-index.js";
import { usageRecords, usageSummary } from "./session-usage.js";

/** The one way to say a session is not there (404). */
export const unknownSession = (id: string, hint = "") => new UserError("not_found", `Unknown session: ${id}.${hint ? ` ${hint}` : ""}`);

/** Deleted sessions go here, never straight away: `<id>--<ms>.jsonl`, restorable as they were. */
const TRASH_DIR = ".trash";
const TRASH_NAME = /^([A-Za-z0-9][A-Za-z0-9_-]{0,63})--(\d{13})\.jsonl$/;

/** The 400 for a turn id the session does not have. */
export function noSuchTurn(id: string, turn: number, tree: TurnTree): string {
  const ids = tree.order.length > 12 ? `${tree.order.slice(0, 12).join(", ")}, ...` : tree.order.join(", ");
  return `Session ${id} has no turn ${turn} (its turns: ${ids || "none yet"}).`;
}

const HEADER = (): SessionEntry => ({ type: "header", ts: new Date().toISOString(), v: 2 });

export class SessionStore {
  private readonly dir: string;
  /** Sessions whose file was checked in this process: torn tail fenced, version-2 header present. */
  private readonly checked = new Set<string>();
  /** Appends per session are chained so lines never interleave or reorder. */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly index: SessionIndex;

  constructor(dataRoot: string) {
    this.dir = join(dataRoot, SESSIONS_DIR);
    this.index = new SessionIndex(this.dir);
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

  /** The session is there, or a 404 that says so (`hint`: what the caller can do instead). */
  async require(id: string, hint = ""): Promise<void> {
    if (!(await this.exists(id))) throw unknownSession(id, hint);
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
    this.index.touched(id);
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
      this.index.touched(id);
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

  /**
   * One branch of the session: its entries, version 2 (older lines migrated), and its turns. The
   * current branch unless `leaf` names the turn it should end at. `running`: a turn runs in it now.
   */
  async read(id: string, { running = false, queue = [], leaf }: { running?: boolean; queue?: QueueItem[]; leaf?: number } = {}): Promise<SessionDetail> {
    const { text, mtime } = await this.readText(id);
    const parsed = parseSessionText(text);
    const tree = turnTree(parsed.entries);
    if (leaf !== undefined && leaf !== 0 && !hasTurn(tree, leaf)) throw new UserError("invalid_request", noSuchTurn(id, leaf, tree));
    const end = leaf ?? tree.leaf;
    return {
      ...summarize(id, parsed.entries, mtime),
      entries: entriesOnBranch(parsed.entries, tree, end),
      branch: branchTurns(tree, end),
      running,
      queue,
      ...(parsed.tornLastLine ? { recovered_torn_line: true } : {}),
      usage: usageSummary(usageRecords(parsed.entries)),
    };
  }

  /** Every entry of the file, every branch, in file order. */
  async entries(id: string): Promise<SessionEntry[]> {
    return parseSessionText((await this.readText(id)).text).entries;
  }

  async summary(id: string): Promise<SessionSummary> {
    const { text, mtime } = await this.readText(id);
    return summarize(id, parseSessionText(text).entries, mtime);
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
    // A reader sees every entry recorded before it asked: what a client was streamed is on disk.
    await this.flush(id);
    try {
      const [text, mtime] = await Promise.all([readFile(file, "utf8"), stat(file).then((s) => s.mtime)]);
      return { text, mtime };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") throw unknownSession(id);
      throw err;
    }
  }

  /** Pinned first, then newest first. Summaries are cached per file size and mtime, so listing stays cheap. */
  async list(): Promise<SessionSummary[]> {
    const summaries = (await this.index.all()).map((s) => s.summary);
    return summaries.sort(
      (a, b) => Number(b.pinned) - Number(a.pinned) || (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : b.id.localeCompare(a.id)),
    );
  }

  /** Every session with its turns' text, for search. */
  indexed(): Promise<IndexedSession[]> {
    return this.index.all();
  }

  /** Moves the session file to the trash (a rename: the bytes stay as they were); returns its name there. */
  async trash(id: string): Promise<string> {
    await this.flush(id);
    const trashDir = join(this.dir, TRASH_DIR);
    await mkdir(trashDir, { recursive: true });
    const name = `${id}--${Date.now()}${EXT}`;
    try {
      await rename(this.file(id), join(trashDir, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") throw unknownSession(id);
      throw err;
    }
    this.checked.delete(id);
    this.index.touched(id);
    return name;
  }

  /** The ids of the sessions in the trash. */
  async trashedIds(): Promise<Set<string>> {
    const names = await readdir(join(this.dir, TRASH_DIR)).catch(() => [] as string[]);
    return new Set(names.flatMap((name) => TRASH_NAME.exec(name)?.[1] ?? []));
  }

  /** Brings a trashed session back under its id; never over a session that took the id meanwhile. */
  async restore(id: string, trashName: string): Promise<void> {
    const match = TRASH_NAME.exec(trashName);
    if (!match || match[1] !== id) throw new UserError("invalid_request", `"${trashName.slice(0, 100)}" is not a trashed file of session ${id}.`);
    const from = join(this.dir, TRASH_DIR, trashName);
    // link + unlink rather than rename: link fails if the id exists again, rename would replace it.
    try {
      await link(from, this.file(id));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EEXIST") throw new UserError("conflict", `A session ${id} exists again; the trashed one stays in sessions/${TRASH_DIR}/${trashName}.`);
      if (code === "ENOENT") throw new UserError("not_found", `sessions/${TRASH_DIR}/${trashName} is not in the trash (any more).`);
      throw err;
    }
    await unlink(from);
    this.index.touched(id);
  }

  /** Writes a session from a validated list of entries under a new id (an import). */
  async write(id: string, entries: SessionEntry[]): Promise<void> {
    const lines = [{ type: "header", ts: new Date().toISOString(), v: 2 }, ...entries].map((e) => `${JSON.stringify(e)}\n`).join("");
    const handle = await open(this.file(id), "wx");
    try {
      await handle.writeFile(lines, "utf8");
    } finally {
      await handle.close();
    }
    this.checked.add(id);
    this.index.touched(id);
  }
}
