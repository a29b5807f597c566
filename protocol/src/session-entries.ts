/**
 * One line of a session file (`sessions/<id>.jsonl`), format version 2: a tagged union on `type`.
 *
 * A session is stored once, as what happened: the user's messages as sent, and every event of a turn
 * as it streamed (`event` entries; pieces of text that streamed back to back are joined, at most a
 * second's worth per line). Everything else is derived by one function each: the history the model
 * is sent (backend `sessions/session-history.ts`) and the Stage's replay (frontend `turn-model.ts`,
 * the same `applyEvent` that applied the live stream).
 *
 * A file starts with a `header`. A file written before version 2 has none; when a turn is added to
 * such a file, a `header` is appended first: lines before it are version 1 and are read through the
 * backend's migration (`sessions/session-format.ts`).
 */
import type { ChatEvent, ErrorEvent, FinalEvent } from "./chat-events.js";

/** Version 2 starts here: the first line of a new file, or the line after a version-1 file's last. */
export interface HeaderEntry {
  type: "header";
  ts: string;
  /** The format version of the lines that follow. */
  v: 2;
}

/** The skills snapshot the session started with (its system prompt uses it for its whole life). */
export interface SnapshotEntry {
  type: "snapshot";
  ts: string;
  content: string;
  /** The roles the `delegate` tool lists for the session's whole life. */
  roles?: string;
}

/** The user's message: the first entry of every turn. */
export interface UserEntry {
  type: "user";
  ts: string;
  content: string;
  /** For a slash command: the message the model was sent (the skill, expanded). */
  model_content?: string;
  /** The turn ran without tools (the user chose to chat without them, for a model that takes none). */
  tools?: false;
  /** Set on reading when a later `meta` edit replaced `content` (never written). */
  edited?: true;
  /**
   * The turn this one follows: turns are numbered 1, 2, ... in the order their `user` entries appear
   * in the file, 0 is the start. A session is a tree: an edited message or a regenerated answer is a
   * new turn whose parent is an earlier one. Absent (files before branches): the turn before it in the file.
   */
  parent?: number;
}

/** Every event a turn streamed except `session` (which only names the session to the client). */
export type StoredEvent = Exclude<ChatEvent, { type: "session" }>;

export interface EventEntry {
  type: "event";
  ts: string;
  event: StoredEvent;
}

/** A skill's text as the model was given it; kept whole across compactions. */
export interface LoadedSkillRecord {
  name: string;
  location: string;
  content: string;
}

/** A summary that stands in for the session's first `covers_turns` turns in what the model is sent. */
export interface CompactionEntry {
  type: "compaction";
  ts: string;
  content: string;
  covers_turns: number;
  /** The skills loaded in those turns, carried over whole. */
  skills: LoadedSkillRecord[];
  /** Asked for by the user rather than forced by the context budget. */
  forced: boolean;
}

/** The reviewer's look at the turn before it: `advice` goes to the next turn's model request, `content` to no model. */
export interface ReviewEntry {
  type: "review";
  ts: string;
  content: string;
  advice: string;
}

/**
 * The user's settings for the session (rename, pin), appended when changed; for each field the last
 * entry that sets it wins. Not part of any turn: no model and no replay sees it.
 */
export interface MetaEntry {
  type: "meta";
  ts: string;
  /** A title the user gave; `null` goes back to the one made from the first message. */
  title?: string | null;
  pinned?: boolean;
  /** The user switched branches: the current branch ends at this turn (until a newer turn or switch). */
  leaf?: number;
  /**
   * The user corrected a message without running it again: turn `turn`'s message reads `content`
   * from here on, for the model and on screen (the original line stays in the file).
   */
  edit?: { turn: number; content: string };
}

export type SessionEntry = HeaderEntry | SnapshotEntry | UserEntry | EventEntry | CompactionEntry | ReviewEntry | MetaEntry;

export type SessionEntryType = SessionEntry["type"];

/** How a turn ended, as its last event says. */
export type TurnEnd = FinalEvent | ErrorEvent;
