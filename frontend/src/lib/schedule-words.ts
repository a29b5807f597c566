/** A task's schedule and times as a person reads them, in the UI's language and the browser's time zone. */
import type { TaskSchedule } from "@mini-openclaw/protocol";
import cronstrue from "cronstrue";
import "cronstrue/locales/zh_CN";
import { formatDateTime } from "@/i18n/format";
import { currentLanguage, i18n } from "@/i18n/language";

const CRONSTRUE_LOCALE = { en: "en", zh: "zh_CN" } as const;

/** The schedule in words: "At 09:00, Monday through Friday (Europe/Paris)", "every 30 minutes", "once, 27 Nov 2026, 09:00". */
export function scheduleInWords(schedule: TaskSchedule, serverZone: string): string {
  switch (schedule.kind) {
    case "cron": {
      let words: string;
      try {
        words = cronstrue.toString(schedule.expr, { use24HourTimeFormat: true, verbose: false, locale: CRONSTRUE_LOCALE[currentLanguage()] });
      } catch {
        words = `cron "${schedule.expr}"`;
      }
      return `${words} (${schedule.tz ?? serverZone})`;
    }
    case "every": {
      const s = schedule.seconds;
      if (s % 3600 === 0) return i18n.t("schedule.everyHours", { count: s / 3600 });
      if (s % 60 === 0) return i18n.t("schedule.everyMinutes", { count: s / 60 });
      return i18n.t("schedule.everySeconds", { count: s });
    }
    case "once":
      return i18n.t("schedule.once", { at: formatDateTime(schedule.at) });
  }
}

/** Whether a schedule's times can fall between minutes. */
export const hasSeconds = (schedule: TaskSchedule) =>
  (schedule.kind === "cron" && schedule.expr.trim().split(/\s+/).length === 6) || (schedule.kind === "every" && schedule.seconds % 60 !== 0);
