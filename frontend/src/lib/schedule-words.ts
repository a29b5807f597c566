/** A task's schedule and times as a person reads them, in the browser's locale and time zone. */
import type { TaskSchedule } from "@mini-openclaw/protocol";
import cronstrue from "cronstrue";

/** The schedule in words: "At 09:00 AM, Monday through Friday (Europe/Paris)", "every 30 minutes", "once, 27 Nov 2026, 09:00". */
export function scheduleInWords(schedule: TaskSchedule, serverZone: string): string {
  switch (schedule.kind) {
    case "cron": {
      let words: string;
      try {
        words = cronstrue.toString(schedule.expr, { use24HourTimeFormat: true, verbose: false });
      } catch {
        words = `cron "${schedule.expr}"`;
      }
      return `${words} (${schedule.tz ?? serverZone})`;
    }
    case "every": {
      const s = schedule.seconds;
      const [n, unit] = s % 3600 === 0 ? [s / 3600, "hour"] : s % 60 === 0 ? [s / 60, "minute"] : [s, "second"];
      return n === 1 ? `every ${unit}` : `every ${n} ${unit}s`;
    }
    case "once":
      return `once, ${localTime(schedule.at)}`;
  }
}

/** A time in the reader's own zone (seconds shown when a schedule has them). */
export function localTime(iso: string, seconds = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: seconds ? "medium" : "short" });
}

/** Whether a schedule's times can fall between minutes. */
export const hasSeconds = (schedule: TaskSchedule) =>
  (schedule.kind === "cron" && schedule.expr.trim().split(/\s+/).length === 6) || (schedule.kind === "every" && schedule.seconds % 60 !== 0);
