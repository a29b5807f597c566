/**
 * A task's schedule as times: cron expressions (five fields, or six with seconds) in a time zone,
 * parsed and stepped by croner (DST and zones as it documents them: a time in the hour a spring-forward
 * skips runs at the first minute after it; a time in the hour a fall-back repeats runs once, at its
 * first occurrence); every N seconds, counted from an anchor; or once.
 */
import type { TaskSchedule } from "@mini-openclaw/protocol";
import { Cron } from "croner";
import { UserError } from "../lib/user-error.js";

/** The server's own time zone (a cron schedule's default). */
export const serverTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A time zone the runtime knows, or a 400 with its reason. */
function checkTimeZone(tz: string): void {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
  } catch (err) {
    throw new UserError(400, `Unknown time zone "${tz.slice(0, 100)}": ${(err as Error).message}. Use an IANA name such as Europe/Paris.`);
  }
}

function cronOf(schedule: Extract<TaskSchedule, { kind: "cron" }>): Cron {
  if (schedule.tz) checkTimeZone(schedule.tz);
  const fields = schedule.expr.trim().split(/\s+/).length;
  if (fields !== 5 && fields !== 6) throw new UserError(400, `Invalid cron expression "${schedule.expr.slice(0, 100)}": it has ${fields} fields; use five (minute hour day month weekday) or six (seconds first).`);
  try {
    return new Cron(schedule.expr, { timezone: schedule.tz ?? serverTimeZone(), paused: true });
  } catch (err) {
    throw new UserError(400, `Invalid cron expression "${schedule.expr.slice(0, 100)}": ${(err as Error).message}`);
  }
}

/** A one-time schedule's instant: an ISO date with a time (a date without an offset is the server's local time). */
function onceAt(schedule: Extract<TaskSchedule, { kind: "once" }>): number {
  const at = Date.parse(schedule.at);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(schedule.at) || Number.isNaN(at)) {
    throw new UserError(400, `"${schedule.at.slice(0, 40)}" is not an ISO date and time (e.g. 2026-12-01T09:00 or 2026-12-01T09:00:00+01:00).`);
  }
  return at;
}

/**
 * Checks a schedule as a new or edited task's: a 400 with the parser's reason, or for a one-time
 * date that has passed.
 */
export function checkSchedule(schedule: TaskSchedule, now = Date.now()): void {
  if (schedule.kind === "cron") {
    if (cronOf(schedule).nextRun(new Date(now)) === null) throw new UserError(400, `The cron expression "${schedule.expr}" never matches a future time.`);
  } else if (schedule.kind === "once" && onceAt(schedule) <= now) {
    throw new UserError(400, `${schedule.at} has passed: a one-time task needs a time in the future.`);
  }
}

/**
 * The first time strictly after `after` (ms), or null when there is none. `anchor`: where an interval
 * counts from (the task's creation or last change).
 */
export function nextTime(schedule: TaskSchedule, after: number, anchor: number): number | null {
  switch (schedule.kind) {
    case "cron":
      return cronOf(schedule).nextRun(new Date(after))?.getTime() ?? null;
    case "every": {
      const step = schedule.seconds * 1000;
      return anchor + (Math.floor(Math.max(0, after - anchor) / step) + 1) * step;
    }
    case "once": {
      const at = onceAt(schedule);
      return at > after ? at : null;
    }
  }
}

/** The next `count` times after `after`. */
export function nextTimes(schedule: TaskSchedule, after: number, anchor: number, count: number): number[] {
  const times: number[] = [];
  let at = after;
  while (times.length < count) {
    const next = nextTime(schedule, at, anchor);
    if (next === null) break;
    times.push(next);
    at = next;
  }
  return times;
}

/**
 * The latest time in (after, now], or null: what a workbench that was down missed. Stepping stops
 * after a bounded number of times (a seconds schedule down for days), keeping the last one reached.
 */
export function lastMissed(schedule: TaskSchedule, after: number, now: number, anchor: number): number | null {
  if (schedule.kind === "every") {
    const step = schedule.seconds * 1000;
    const last = anchor + Math.floor((now - anchor) / step) * step;
    return last > after && last <= now ? last : null;
  }
  let missed: number | null = null;
  let at = after;
  for (let i = 0; i < 100_000; i++) {
    const next = nextTime(schedule, at, anchor);
    if (next === null || next > now) break;
    missed = next;
    at = next;
  }
  return missed;
}
