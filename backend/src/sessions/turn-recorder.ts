import type { Attachment, ChatEvent, CompactionEntry, McpCatalog, NumberedEvent, SessionEntry, StoredEvent } from "@mini-openclaw/protocol";
import { isTextPiece, joinTextEvents } from "./join-text-events.js";
import type { SessionStore } from "./session-store.js";

/** Streamed text is held at most this long before it is written. */
export const CHECKPOINT_MS = 1000;

/**
 * Writes a turn into its session as it happens: the user's message, then every event the turn
 * streams, in stream order, as `event` entries carrying the turn's id and the id each event went out
 * with (session-entries.ts). Pieces of text that stream back to back are joined (the line keeps the
 * first and last piece's ids) and written when something else happens or a second has passed, so a
 * crash loses at most the last second of what the user saw. A sub-agent's events are written the
 * same way as they happen (they stream as `delegate` events). It follows a live turn as one of its
 * subscribers (`event`).
 */
export function createTurnRecorder(store: SessionStore, sessionId: string, onWriteError: (err: unknown) => void) {
  let firstWriteError: Error | null = null;
  let turn: number | undefined;
  let held: { event: StoredEvent; firstId: number; id: number } | null = null;
  let heldTimer: NodeJS.Timeout | null = null;

  const write = (entry: SessionEntry) => {
    store.append(sessionId, entry).catch((err: Error) => {
      firstWriteError ??= err;
      onWriteError(err);
    });
  };
  const now = () => new Date().toISOString();
  const ofTurn = () => (turn !== undefined ? { turn } : {});
  const writeEvent = (event: StoredEvent, id: number, firstId = id) =>
    write({ type: "event", ts: now(), ...ofTurn(), id, ...(firstId !== id ? { first_id: firstId } : {}), event });
  const writeHeld = () => {
    if (heldTimer) clearTimeout(heldTimer);
    heldTimer = null;
    if (held) writeEvent(held.event, held.id, held.firstId);
    held = null;
  };

  return {
    /** The first session write that failed in this turn, if any. */
    get writeError(): Error | null {
      return firstWriteError;
    },
    /** The id every entry of this turn carries from here on. */
    startTurn(id: number) {
      turn = id;
    },
    /** Records the skills snapshot and the roles catalog a new session starts with. */
    snapshot(content: string, roles: string, mcp?: McpCatalog) {
      write({ type: "snapshot", ts: now(), content, roles, ...(mcp ? { mcp } : {}) });
    },
    /** Records a compaction made at the start of this turn (its `compaction` event is this entry, replayed). */
    compaction(entry: CompactionEntry) {
      write({ ...entry, ...ofTurn() });
    },
    /** Records the user's message; the first entry of every turn. `parent`: the turn it follows (0: the start). */
    user(message: string, parent: number, modelContent?: string, tools = true, attachments: Attachment[] = [], by?: "consolidation") {
      write({
        type: "user",
        ts: now(),
        ...ofTurn(),
        content: message,
        ...(modelContent !== undefined ? { model_content: modelContent } : {}),
        ...(tools ? {} : { tools: false as const }),
        ...(attachments.length > 0 ? { attachments } : {}),
        parent,
        ...(by ? { by } : {}),
      });
    },
    /** A live turn's event, as its subscriber. */
    event({ event, id }: NumberedEvent) {
      this.onEvent(event, id);
    },
    /** Records an event with the id it went out with. */
    onEvent(event: ChatEvent, id: number) {
      // `session` names the session to the client; a compaction is stored as its entry.
      if (event.type === "session" || event.type === "compaction") return;
      if (held) {
        const joined = joinTextEvents(held.event, event);
        if (joined) {
          held = { ...held, event: joined, id };
          return;
        }
        writeHeld();
      }
      if (isTextPiece(event)) {
        held = { event, firstId: id, id };
        heldTimer = setTimeout(writeHeld, CHECKPOINT_MS);
        heldTimer.unref();
        return;
      }
      writeEvent(event, id);
    },
    /** Writes what is held: the turn is over (its last event was recorded, or it will have none). */
    end() {
      writeHeld();
    },
    /** Writes what is held and waits for every write so far; the first write that failed, if any. */
    async settle(): Promise<Error | null> {
      writeHeld();
      await store.flush(sessionId);
      return firstWriteError;
    },
  };
}
