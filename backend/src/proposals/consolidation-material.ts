/**
 * What a consolidation run reads: what is new since its last run, newest first, within a budget of
 * characters — the daily logs (numbered lines, so a proposal can cite one; a log larger than what is
 * left is read from its end), the sessions' user messages and answers (tool outputs are left out), and
 * which turns changed the memory files. What did not fit is said, never dropped in silence.
 */
import { MEMORY_PROPOSAL_FILES, type SessionEntry, type SessionSummary } from "@mini-openclaw/protocol";
import { LOGS_DIR } from "../memory/daily-log.js";
import { isUnreadable, readConfinedFile } from "../paths/read-confined-file.js";
import { readConfinedDir } from "../paths/walk-confined-dir.js";

const LOG_NAME = /^(\d{4}-\d{2}-\d{2})\.md$/;
/** A message or answer longer than this is cut in the material (its start is what says what it is). */
const MAX_TEXT_CHARS = 4000;

export interface MaterialSources {
  dataRoot: string;
  sessions: { list(): Promise<SessionSummary[]>; entries(id: string): Promise<SessionEntry[]> };
  /** The files each recorded call of a session changed, with its turn. */
  changedFiles(sessionId: string): Promise<Array<{ turn: number; tool: string; paths: string[] }>>;
}

export interface Material {
  /** The text the helper reads. */
  text: string;
  chars: number;
  logs: number;
  turns: number;
  sessions: number;
  /** What was left out, said to the helper and the user. */
  skipped: string[];
}

interface Piece {
  at: string;
  /** A session's id for a turn; null for a log. */
  session: string | null;
  /** Renders within `room` characters (null: not even its heading fits). */
  render: (room: number) => string | null;
  what: string;
}

const cut = (text: string) => (text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)} […${text.length - MAX_TEXT_CHARS} more characters]` : text);

async function logPieces(dataRoot: string, since: string | null, budget: number): Promise<{ pieces: Piece[]; skipped: string[] }> {
  const names = ((await readConfinedDir(dataRoot, LOGS_DIR)) ?? []).filter((e) => e.kind === "file" && LOG_NAME.test(e.name)).map((e) => e.name);
  const sinceDay = since?.slice(0, 10) ?? "";
  const pieces: Piece[] = [];
  const skipped: string[] = [];
  for (const name of names.sort().reverse()) {
    const day = LOG_NAME.exec(name)![1];
    if (day < sinceDay) continue;
    const path = `${LOGS_DIR}/${name}`;
    let read;
    try {
      // Never more than the whole budget of one file: a log of a gigabyte is read from its end.
      read = await readConfinedFile(dataRoot, path, { maxBytes: budget, tail: true });
    } catch (err) {
      if (isUnreadable(err)) {
        skipped.push(`${path}: ${err.message}`);
        continue;
      }
      throw err;
    }
    // A log not written to since the last run has nothing new.
    if (since !== null && read.mtimeMs <= Date.parse(since)) continue;
    if (read.data.subarray(0, 8192).includes(0)) {
      skipped.push(`${path}: a binary file`);
      continue;
    }
    const text = read.data.toString("utf8");
    const lines = text.replace(/\s+$/, "").split("\n");
    // A tail read starts mid-line: that line is not counted, and the numbers are from the end.
    const firstWhole = read.skipped > 0 ? 1 : 0;
    const totalLines = read.skipped > 0 ? null : lines.length;
    pieces.push({
      at: `${day}T23:59:59`,
      session: null,
      what: path,
      render: (room) => {
        const heading = `## Daily log ${path}${read.skipped > 0 ? ` (its last ${read.bytes} bytes; ${read.skipped} earlier bytes not read)` : ""}`;
        if (heading.length + 1 > room) return null;
        const shown: string[] = [];
        let size = heading.length + 1;
        for (let i = lines.length - 1; i >= firstWhole; i--) {
          const number = totalLines !== null ? `${i + 1}` : `end-${lines.length - i}`;
          const line = `${number}: ${lines[i]}`;
          if (size + line.length + 1 > room) {
            shown.unshift(`[${i - firstWhole + 1} earlier lines of ${path} left out: over the budget]`);
            break;
          }
          size += line.length + 1;
          shown.unshift(line);
        }
        return [heading, ...shown].join("\n");
      },
    });
  }
  return { pieces, skipped };
}

/** A session's turns since `since`: the user's message and the answer, by turn (the helper's own turns left out). */
function turnsOf(entries: SessionEntry[], since: string | null): Array<{ turn: number; at: string; message: string; answer: string }> {
  const turns = new Map<number, { turn: number; at: string; message: string; answer: string }>();
  const helper = new Set<number>();
  for (const entry of entries) {
    if (entry.type === "user" && entry.turn !== undefined) {
      if (entry.by) helper.add(entry.turn);
      else turns.set(entry.turn, { turn: entry.turn, at: entry.ts, message: entry.content, answer: "" });
    } else if (entry.type === "event" && entry.turn !== undefined && entry.event.type === "final") {
      const turn = turns.get(entry.turn);
      if (turn) turn.answer = entry.event.content;
    }
  }
  return [...turns.values()].filter((t) => !helper.has(t.turn) && (since === null || t.at > since));
}

export async function gatherMaterial(sources: MaterialSources, since: string | null, budget: number): Promise<Material> {
  const { pieces, skipped } = await logPieces(sources.dataRoot, since, budget);
  const sessions = (await sources.sessions.list()).filter((s) => since === null || s.updated_at > since);
  const memoryChanges: string[] = [];
  for (const session of sessions) {
    let entries: SessionEntry[];
    try {
      entries = await sources.sessions.entries(session.id);
    } catch (err) {
      skipped.push(`session ${session.id}: ${(err as Error).message.slice(0, 200)}`);
      continue;
    }
    const turns = turnsOf(entries, since);
    for (const t of turns) {
      pieces.push({
        at: t.at,
        session: session.id,
        what: `turn ${t.turn} of session ${session.id}`,
        render: (room) => {
          const text = [`## Session ${session.id} "${session.title.slice(0, 100)}", turn ${t.turn} (${t.at})`, `User: ${cut(t.message)}`, `Answer: ${cut(t.answer) || "(none)"}`].join("\n");
          return text.length <= room ? text : null;
        },
      });
    }
    if (turns.length === 0) continue;
    const newTurns = new Set(turns.map((t) => t.turn));
    for (const call of await sources.changedFiles(session.id).catch(() => [])) {
      const memory = call.paths.filter((p) => (MEMORY_PROPOSAL_FILES as readonly string[]).includes(p));
      if (newTurns.has(call.turn) && memory.length > 0) memoryChanges.push(`- turn ${call.turn} of session ${session.id} changed ${memory.join(", ")} (${call.tool})`);
    }
  }
  pieces.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  const shown: string[] = [];
  const read: Piece[] = [];
  let used = 0;
  const left: string[] = [];
  for (const piece of pieces) {
    const text = piece.render(budget - used);
    if (text === null) {
      left.push(piece.what);
      continue;
    }
    shown.push(text);
    read.push(piece);
    used += text.length + 2;
  }
  if (left.length > 0) skipped.push(`over the budget of ${budget} characters (newest read first): ${left.slice(0, 20).join("; ")}${left.length > 20 ? `; and ${left.length - 20} more` : ""}`);
  const changes = memoryChanges.length > 0 ? `\n\n## Memory changes the agent made\n${memoryChanges.join("\n")}` : "";
  const text = `${shown.join("\n\n")}${changes}`;
  const turns = read.filter((p) => p.session !== null);
  return { text, chars: text.length, logs: read.length - turns.length, turns: turns.length, sessions: new Set(turns.map((p) => p.session)).size, skipped };
}
