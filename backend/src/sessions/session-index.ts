/**
 * What the session list and the search need of every session file, kept in memory per file size and
 * mtime: its summary and its turns' text (the user's message and the answer), lowercased for matching.
 * A file that changed is read again; nothing else is.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { SessionEntry, SessionSummary } from "@mini-openclaw/protocol";
import { turnTree } from "./session-branches.js";
import { type UsageRecord, usageRecords } from "./session-usage.js";
import { parseSessionText } from "./session-format.js";
import { isValidSessionId } from "./session-id.js";

export const SESSION_EXT = ".jsonl";
const TITLE_CHARS = 80;
/** Files stat'ed or read at once: enough to overlap the I/O of thousands of sessions, few enough to bound memory. */
const BATCH = 64;

export interface IndexedSession {
  summary: SessionSummary;
  /** Per turn: the user's message and the answer, lowercased, in file order. */
  turns: string[];
  /** The id of each of `turns`. */
  turnIds: number[];
  /** Its model requests (`GET /api/usage` adds them up). */
  usage: UsageRecord[];
}

const isAnswer = (e: SessionEntry) => e.type === "user" || (e.type === "event" && e.event.type === "final");

/** The text of each turn a search looks in, by turn id: what the user wrote and the answer (its streamed text, when cut short). */
export function turnTexts(entries: SessionEntry[]): Map<number, string> {
  const { edits, owner } = turnTree(entries);
  const turns = new Map<number, { user: string; tokens: string; final: string | null }>();
  entries.forEach((entry, i) => {
    const id = owner[i];
    if (entry.type === "user") turns.set(id, { user: edits.get(id) ?? entry.content, tokens: "", final: null });
    else if (entry.type === "event" && turns.has(id)) {
      const turn = turns.get(id)!;
      if (entry.event.type === "token") turn.tokens += entry.event.content;
      else if (entry.event.type === "final") turn.final = entry.event.content;
    }
  });
  return new Map([...turns].map(([id, t]) => [id, `${t.user}\n${t.final ?? t.tokens}`]));
}

/** The model profile the session was last switched to (null: back to the default; undefined: never switched). */
export function chosenModel(entries: SessionEntry[]): string | null | undefined {
  let model: string | null | undefined;
  for (const entry of entries) if (entry.type === "meta" && entry.model !== undefined) model = entry.model;
  return model;
}

export function summarize(id: string, entries: SessionEntry[], mtime: Date): SessionSummary {
  const firstUser = entries.find((e) => e.type === "user");
  const generated = firstUser ? firstUser.content.replace(/\s+/g, " ").trim().slice(0, TITLE_CHARS) : "";
  let title: string | null = null;
  let pinned = false;
  let replayOf: SessionSummary["replay_of"];
  const model = chosenModel(entries);
  let lastTs: string | null = null;
  for (const entry of entries) {
    if (entry.type === "meta") {
      if (entry.title !== undefined) title = entry.title;
      if (entry.pinned !== undefined) pinned = entry.pinned;
      if (entry.replay_of !== undefined) replayOf = entry.replay_of;
    } else if (entry.type !== "header") lastTs = entry.ts;
  }
  const updated = lastTs && !Number.isNaN(Date.parse(lastTs)) ? new Date(lastTs) : mtime;
  return { id, title: title || generated || "New session", updated_at: updated.toISOString(), message_count: entries.filter(isAnswer).length, pinned, ...(model ? { model } : {}), ...(replayOf ? { replay_of: replayOf } : {}) };
}

async function inBatches<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(...(await Promise.all(items.slice(i, i + BATCH).map(fn))));
  return out;
}

/** How long a full check of the folder is trusted: the store reports its own writes at once (`touched`). */
const FRESH_MS = 2000;

export class SessionIndex {
  private readonly cache = new Map<string, { mtimeMs: number; size: number; session: IndexedSession }>();
  private checked: { at: number; dirMtimeMs: number; sessions: IndexedSession[] } | null = null;

  constructor(private readonly dir: string) {}

  /** The store wrote this session's file: the next read looks at it again. */
  touched(id: string): void {
    this.cache.delete(id);
    this.checked = null;
  }

  /**
   * Every session, read again only where its file changed. A listing or search within FRESH_MS of the
   * last full check reuses it unless a file came or went (the folder's mtime), so searching thousands
   * of sessions does not stat every file each time; a file changed in place outside the workbench
   * shows up within FRESH_MS.
   */
  async all(): Promise<IndexedSession[]> {
    const dirMtimeMs = (await stat(this.dir).catch(() => null))?.mtimeMs ?? 0;
    const { checked } = this;
    if (checked && checked.dirMtimeMs === dirMtimeMs && performance.now() - checked.at < FRESH_MS) return checked.sessions;
    const sessions = await this.check();
    this.checked = { at: performance.now(), dirMtimeMs, sessions };
    return sessions;
  }

  private async check(): Promise<IndexedSession[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
    const ids = names.filter((n) => n.endsWith(SESSION_EXT)).map((n) => n.slice(0, -SESSION_EXT.length)).filter(isValidSessionId);
    const found = await inBatches(ids, async (id) => {
      const file = join(this.dir, `${id}${SESSION_EXT}`);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return null;
      const cached = this.cache.get(id);
      if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.session;
      const text = await readFile(file, "utf8").catch(() => "");
      const { entries } = parseSessionText(text);
      const texts = turnTexts(entries);
      const session = { summary: summarize(id, entries, info.mtime), turns: [...texts.values()].map((t) => t.toLowerCase()), turnIds: [...texts.keys()], usage: usageRecords(entries) };
      this.cache.set(id, { mtimeMs: info.mtimeMs, size: info.size, session });
      return session;
    });
    const present = new Set(ids);
    for (const id of this.cache.keys()) if (!present.has(id)) this.cache.delete(id);
    return found.filter((s): s is IndexedSession => s !== null);
  }
}
