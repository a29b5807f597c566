/**
 * A running turn to one SSE reader: its events from where the reader joined, written as fast as the
 * reader takes them and no faster. A reader that reads slowly (or not at all) falls behind in the
 * turn's own event list; what waits for it on its connection stays under a bound, however fast the
 * model streams and however many readers there are. One that takes nothing for a minute is let go.
 */
import type { NumberedEvent } from "@mini-openclaw/protocol";
import type { LiveTurn } from "../turns/live-turn.js";
import { type SseStream, sseFrame } from "./sse.js";

/** Frames are made once per event, whatever the number of readers. */
const frames = new WeakMap<NumberedEvent, string>();
function frameOf(numbered: NumberedEvent): string {
  let frame = frames.get(numbered);
  if (frame === undefined) frames.set(numbered, (frame = sseFrame(numbered.event, numbered.id)));
  return frame;
}

/** Events written per round before the event loop comes round again. */
const ROUND = 256;
/** A reader that takes nothing for this long while events wait for it is let go (it can reattach). */
export const STALLED_READER_MS = 60_000;

/** Streams the turn's events after `afterId` to `sse`, ending it with the turn; returns the way to stop. */
export function streamTurn(sse: SseStream, live: LiveTurn, afterId: number | null): () => void {
  const cursor = live.cursor(afterId);
  let scheduled = false;
  let stopped = false;
  let stalled: NodeJS.Timeout | null = null;
  const pump = () => {
    scheduled = false;
    if (stopped) return;
    if (stalled) clearTimeout(stalled);
    stalled = null;
    while (sse.hasRoom()) {
      const batch = cursor.take(ROUND);
      if (batch.length === 0) break;
      sse.sendFrame(batch.map(frameOf).join(""));
      if (batch.length === ROUND) return schedule();
    }
    if (cursor.done) return sse.end();
    // Behind, with no room: it holds the turn's events while it is connected, so not for ever.
    if (!sse.hasRoom()) stalled = setTimeout(() => sse.cut(), STALLED_READER_MS).unref();
  };
  const schedule = () => {
    if (scheduled || stopped) return;
    scheduled = true;
    setImmediate(pump);
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
