/**
 * Ids for the events of every turn: one clock for the whole server, so ids increase within a
 * session across its turns and no two sessions share one (an id from another session is refused
 * when a client reattaches, never taken for this one's). The clock starts from the wall clock in
 * microseconds, so a restarted server goes on above what the last one handed out; a session's own
 * stored ids raise it further (`atLeast`) in case the clock went back, but never toward the edge of
 * what a JavaScript number counts exactly: a stored id from a hostile or broken file cannot set it.
 */
/** The highest id the clock goes to: room for 2^40 ids below 2^53 - 1. */
export const MAX_EVENT_ID = Number.MAX_SAFE_INTEGER - 2 ** 40;

export class EventIdClock {
  private last: number;

  constructor(now = Date.now()) {
    this.last = now * 1000;
  }

  next(): number {
    this.last += 1;
    return this.last;
  }

  /** Every later id is above `id` (one past the clock's range is ignored: it did not come from a clock). */
  atLeast(id: number): void {
    if (id > this.last && id <= MAX_EVENT_ID) this.last = id;
  }
}

/** Parses a client's `Last-Event-ID` or `?after=`; null when it is not an id at all. */
export function parseEventId(raw: string): number | null {
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}
