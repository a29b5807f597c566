/**
 * A running turn to one SSE reader: its events from where the reader joined, written as fast as the
 * reader takes them and no faster. A reader that reads slowly (or not at all) falls behind in the
 * turn's own event list; what waits for it on its connection stays under a bound, however fast the
 * model streams and however many readers there are. One that takes nothing for a minute is let go.
 */
import type { NumberedEvent } from "@mini-openclaw/protocol";
import type { LiveTurn } from "../turns/live-turn.js";
import { type SseStream, sseFrame } from "./sse.js";

/** Frames are made once per event, as bytes, whatever the number of readers. */
const frames = new WeakMap<NumberedEvent, Uint8Array>();
function frameOf(numbered: NumberedEvent): Uint8Array {
  let frame = frames.get(numbered);
  if (frame === undefined) frames.set(numbered, (frame = Buffer.from(sseFrame(numbered.event, numbered.id))));
  return frame;
}

/** Written per round before the event loop comes round again: events, and bytes. */
const ROUND_EVENTS = 256;
const ROUND_BYTES = 1024 * 1024;
/** A reader that takes nothing for this long while events wait for it is let go (it can reattach). */
export const STALLED_READER_MS = 60_000;

/** Streams the turn's events after `afterId` to `sse`, ending it with the turn; returns the way to stop. */
export function streamTurn(sse: SseStream, live: LiveTurn, afterId: number | null): () => void {
  const cursor = live.cursor(afterId);
  /** A round is due when the event loop comes round; events until then wait for it. */
  let due = false;
  let stopped = false;
  let stalled: NodeJS.Timeout | null = null;
  const pump = () => {
    if (stopped) return;
    if (stalled) clearTimeout(stalled);
    stalled = null;
    const round: Uint8Array[] = [];
    let bytes = 0;
    while (sse.hasRoom() && round.length < ROUND_EVENTS && bytes < ROUND_BYTES) {
      const [next] = cursor.take(1);
      if (!next) break;
      const frame = frameOf(next);
      round.push(frame);
      bytes += frame.length;
    }
    sse.sendFrames(round);
    if (cursor.done) return sse.end();
    if (sse.hasRoom()) {
      // A full round: the rest after the event loop came round (the socket may take more by then).
      if (round.length > 0) schedule();
      return;
    }
    // Behind, with no room: it holds the turn's events while it is connected, so not for ever.
    stalled = setTimeout(() => sse.cut(), STALLED_READER_MS).unref();
  };
  // The first events after a quiet loop go out as soon as the code that emitted them is done (a
  // block's start and its first delta come together), those that follow in the next round: a model
  // that floods keeps the loop busy parsing (in promise jobs) long before the loop comes round.
  const schedule = () => {
    if (due || stopped) return;
    due = true;
    queueMicrotask(pump);
    setImmediate(() => {
      due = false;
      pump();
    });
  };
  const unwatch = live.watch(schedule);
  const undrain = sse.onRoom(schedule);
  pump();
  return () => {
    stopped = true;
    if (stalled) clearTimeout(stalled);
    unwatch();
    undrain();
  };
}
