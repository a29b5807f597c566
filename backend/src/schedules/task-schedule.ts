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
    throw new UserError("invalid_request", `Unknown time zone "${tz.slice(0, 100)}": ${(err as Error).message}. Use an IANA name such as Europe/Paris.`);
  }
}

function cronOf(schedule: Extract<TaskSchedule, { kind: "cron" }>): Cron {
  if (schedule.tz) checkTimeZone(schedule.tz);
  const fields = schedule.expr.trim().split(/\s+/).length;
  if (fields !== 5 && fields !== 6) throw new UserError("invalid_request", `Invalid cron expression "${schedule.expr.slice(0, 100)}": it has ${fields} fields; use five (minute hour day month weekday) or six (seconds first).`);
  try {
    return new Cron(schedule.expr, { timezone: schedule.tz ?? serverTimeZone(), paused: true });
  } catch (err) {
    throw new UserError("invalid_request", `Invalid cron expression "${schedule.expr.slice(0, 100)}": ${(err as Error).message}`);
  }
}

/** A one-time schedule's instant: an ISO date with a time (a date without an offset is the server's local time). */
function onceAt(schedule: Extract<TaskSchedule, { kind: "once" }>): number {
  const at = Date.parse(schedule.at);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(schedule.at) || Number.isNaN(at)) {
    throw new UserError("invalid_request", `"${schedule.at.slice(0, 40)}" is not an ISO date and time (e.g. 2026-12-01T09:00 or 2026-12-01T09:00:00+01:00).`);
  }
  return at;
}

/** The shortest time between two runs of a repeating schedule, over its next few runs (ms); null for one run. */
export function shortestGap(schedule: TaskSchedule, now = Date.now()): number | null {
  if (schedule.kind === "every") return schedule.seconds * 1000;
  if (schedule.kind === "once") return null;
  // A cron's gaps vary (`0,1 9 * * *`): the smallest of its next runs, from two starting points.
  const runs = [...nextTimes(schedule, now, now, 8), ...nextTimes(schedule, now + 43_200_000, now, 8)];
  let gap: number | null = null;
  for (let i = 1; i < runs.length; i++) if (runs[i] > runs[i - 1]) gap = Math.min(gap ?? Infinity, runs[i] - runs[i - 1]);
  return gap;
}

/**
 * Checks a schedule as a new or edited task's: a 400 with the parser's reason, for a one-time date
 * that has passed, or for runs closer together than `minIntervalSeconds`.
 */
export function checkSchedule(schedule: TaskSchedule, now = Date.now(), minIntervalSeconds = 0): void {
  if (schedule.kind === "cron") {
    if (cronOf(schedule).nextRun(new Date(now)) === null) throw new UserError("invalid_request", `The cron expression "${schedule.expr}" never matches a future time.`);
  } else if (schedule.kind === "once" && onceAt(schedule) <= now) {
    throw new UserError("invalid_request", `${schedule.at} has passed: a one-time task needs a time in the future.`);
  }
  const gap = shortestGap(schedule, now);
  if (gap !== null && gap < minIntervalSeconds * 1000) {
    throw new UserError("invalid_request", `This schedule runs ${Math.round(gap / 1000)} s apart; a task runs at most once every ${minIntervalSeconds} s (TASK_MIN_INTERVAL_SECONDS).`);
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
 * The latest time in (after, now], or null: what a workbench that was down missed. Found without
 * stepping through the times in between (a seconds schedule down for a day has 86,400 of them): an
 * interval by arithmetic, a cron by croner's step backwards from now.
 */
export function lastMissed(schedule: TaskSchedule, after: number, now: number, anchor: number): number | null {
  let last: number | null;
  switch (schedule.kind) {
    case "every": {
      const step = schedule.seconds * 1000;
      last = anchor + Math.floor((now - anchor) / step) * step;
      break;
    }
    case "cron":
      // previousRuns counts back from just after now, so a run at `now` itself is found.
      last = cronOf(schedule).previousRuns(1, new Date(now + 1))[0]?.getTime() ?? null;
      break;
    case "once":
      last = onceAt(schedule);
      break;
  }
  return last !== null && last > after && last <= now ? last : null;
}
