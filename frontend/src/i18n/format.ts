/** Numbers, sizes, durations and times in the UI's language, all through `Intl`. */
import { currentLocale, i18n } from "./language";

export const formatNumber = (value: number, options?: Intl.NumberFormatOptions): string => new Intl.NumberFormat(currentLocale(), options).format(value);

export function formatBytes(bytes: number): string {
  // "178 B" in every language (Intl's narrow English is "178B", its short one "178 byte").
  if (bytes < 1024) return `${formatNumber(bytes)} B`;
  if (bytes < 1024 * 1024) return formatNumber(bytes / 1024, { style: "unit", unit: "kilobyte", maximumFractionDigits: 1, minimumFractionDigits: 1 });
  return formatNumber(bytes / 1024 / 1024, { style: "unit", unit: "megabyte", maximumFractionDigits: 1, minimumFractionDigits: 1 });
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return i18n.t("format.milliseconds", { value: formatNumber(ms) });
  const digits = ms < 10_000 ? 1 : 0;
  return i18n.t("format.seconds", { value: formatNumber(ms / 1000, { maximumFractionDigits: digits, minimumFractionDigits: digits }) });
}

/** US dollars as a person reads them: cents for most sums, more digits for the small ones a local request costs. */
export function formatCost(dollars: number): string {
  const digits = dollars === 0 ? 0 : dollars < 0.01 ? 4 : 2;
  return formatNumber(dollars, { style: "currency", currency: "USD", minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "just now", "5 minutes ago", "3 hours ago", then the date. */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  const words = new Intl.RelativeTimeFormat(currentLocale(), { numeric: "auto", style: "short" });
  if (seconds < 60) return words.format(0, "second");
  if (seconds < 3600) return words.format(-Math.floor(seconds / 60), "minute");
  if (seconds < 86_400) return words.format(-Math.floor(seconds / 3600), "hour");
  return new Date(iso).toLocaleDateString(currentLocale());
}

/** A date and time in the reader's own zone (seconds when they matter). */
export function formatDateTime(iso: string, seconds = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(currentLocale(), { dateStyle: "medium", timeStyle: seconds ? "medium" : "short" });
}

export function formatTime(time: string | number): string {
  return new Date(time).toLocaleTimeString(currentLocale());
}
