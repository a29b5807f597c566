/**
 * The agent's daily log: `memory/logs/YYYY-MM-DD.md`, one file per day (the server's local date).
 * Today's and yesterday's go into the system prompt as one section after MEMORY.md, within their own
 * budget: the newest lines are kept, the oldest dropped with a marker that says how much and where.
 */
import { isUnreadable, readConfinedText } from "../paths/read-confined-file.js";

export const LOGS_DIR = "memory/logs";
/** The daily logs' own share of the system prompt. */
export const DAILY_LOG_BUDGET_CHARS = 8_000;
const LOG_MAX_BYTES = 1024 * 1024;

/** `YYYY-MM-DD` in the server's local time zone. */
export function localDate(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

export const dailyLogPath = (date: string) => `${LOGS_DIR}/${date}.md`;

/** Yesterday's and today's log paths, oldest first. */
export function recentLogPaths(now: Date): string[] {
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 12);
  return [dailyLogPath(localDate(yesterday)), dailyLogPath(localDate(now))];
}

async function readLog(dataRoot: string, path: string): Promise<string | null> {
  try {
    return (await readConfinedText(dataRoot, path, LOG_MAX_BYTES)).content;
  } catch (err) {
    // A log that is missing, a link or not a file is left out (the other one still counts).
    if (isUnreadable(err)) return null;
    throw err;
  }
}

export interface DailyLogSection {
  /** The section's text as the prompt holds it (already within the budget). */
  text: string;
  /** Characters of the logs before the cut. */
  rawChars: number;
  truncated: boolean;
  paths: string[];
}

/**
 * Yesterday's and today's logs, each under its own heading, within the budget: whole lines are
 * dropped from the oldest end (yesterday's start first), and a marker line says how many characters
 * were left out and which file holds them. Null when neither log exists.
 */
export async function dailyLogSection(dataRoot: string, locationPrefix: string, now: Date, budget = DAILY_LOG_BUDGET_CHARS): Promise<DailyLogSection | null> {
  const paths = recentLogPaths(now);
  const logs = (await Promise.all(paths.map(async (path) => ({ path, text: await readLog(dataRoot, path) })))).filter((l): l is { path: string; text: string } => l.text !== null && l.text.trim() !== "");
  if (logs.length === 0) return null;
  const lines: Array<{ text: string; path: string }> = [];
  for (const log of logs) {
    lines.push({ text: `### ${locationPrefix}/${log.path}`, path: log.path });
    for (const line of log.text.replace(/\s+$/, "").split("\n")) lines.push({ text: line, path: log.path });
  }
  const whole = lines.map((l) => l.text).join("\n");
  if (whole.length <= budget) return { text: whole, rawChars: whole.length, truncated: false, paths: logs.map((l) => l.path) };
  // Keep the newest lines that fit beside the marker.
  const kept: string[] = [];
  let size = 0;
  let first = lines.length;
  const room = budget - 200;
  for (let i = lines.length - 1; i >= 0; i--) {
    const cost = lines[i].text.length + 1;
    if (size + cost > room) break;
    size += cost;
    first = i;
    kept.unshift(lines[i].text);
  }
  const dropped = lines.slice(0, first);
  const droppedChars = dropped.reduce((n, l) => n + l.text.length + 1, 0);
  const from = [...new Set(dropped.map((l) => `${locationPrefix}/${l.path}`))].join(" and ");
  // The kept part starts mid-file: name the file it continues.
  const continues = lines[first] && !lines[first].text.startsWith("### ") ? [`### ${locationPrefix}/${lines[first].path} (continued)`] : [];
  const marker = `[… ${droppedChars} older characters of the daily logs left out; read them in ${from} with read_file or memory_search]`;
  const text = [marker, ...continues, ...kept].join("\n");
  return { text, rawChars: whole.length, truncated: true, paths: logs.map((l) => l.path) };
}
