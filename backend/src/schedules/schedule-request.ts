/**
 * What the agent's `schedule` tool asks for, as a task's fields, and in words for its approval card:
 * the schedule, its next three times and the prompt.
 */
import type { TaskFields, TaskSchedule } from "@mini-openclaw/protocol";
import { z } from "zod";
import { checkSchedule, nextTimes, serverTimeZone } from "./task-schedule.js";

export const scheduleRequestSchema = z.object({
  name: z.string().min(1).max(100).describe("A short name for the task, e.g. \"Water the plants\"."),
  prompt: z
    .string()
    .min(1)
    .max(20_000)
    .describe("What each run asks the agent, written as the user's message (e.g. \"Remind me to water the plants.\"). Runs happen with nobody watching."),
  cron: z.string().max(200).optional().describe("Repeating: a cron expression, five fields (minute hour day month weekday), e.g. \"0 9 * * 1-5\"."),
  every_minutes: z.number().int().min(1).max(527_040).optional().describe("Repeating: every N minutes."),
  at: z.string().max(40).optional().describe("Once: an ISO date and time, e.g. \"2026-11-27T09:00\" (the server's local time) or with an offset."),
  time_zone: z.string().max(100).optional().describe("An IANA time zone for `cron` (default: the server's)."),
  session: z.enum(["new", "this"]).optional().describe("Where runs go: a new session each time (default), or this session."),
});
export type ScheduleRequest = z.infer<typeof scheduleRequestSchema>;

/** The schedule a request names; an error in words when it names none or several. */
export function requestedSchedule(input: ScheduleRequest): TaskSchedule {
  const given = [input.cron !== undefined, input.every_minutes !== undefined, input.at !== undefined].filter(Boolean).length;
  if (given !== 1) throw new Error("give exactly one of `cron`, `every_minutes` or `at`");
  if (input.cron !== undefined) return { kind: "cron", expr: input.cron, ...(input.time_zone ? { tz: input.time_zone } : {}) };
  if (input.every_minutes !== undefined) return { kind: "every", seconds: input.every_minutes * 60 };
  return { kind: "once", at: input.at! };
}

/** The task the request makes, from the session it was asked in. */
export function requestedTask(input: ScheduleRequest, sessionId: string): TaskFields {
  return { name: input.name, prompt: input.prompt, schedule: requestedSchedule(input), ...(input.session === "this" ? { session: sessionId } : {}) };
}

/**
 * What an allow rule for `schedule` names and is matched against, exactly: the schedule, where runs
 * go and the prompt, never the name the agent chose. Nothing in it is a wildcard: a cron's `*` or a
 * prompt's are themselves, so "Always allow" admits this very task again and nothing else.
 */
export function scheduleRule(input: ScheduleRequest): string {
  let when: string;
  try {
    when = scheduleWords(requestedSchedule(input));
  } catch {
    when = "(not a schedule)";
  }
  return `${when} | runs in ${input.session === "this" ? "this session" : "a new session"} | prompt: ${input.prompt}`;
}

/** Why the request cannot be a task (the schedule's own error), or null. */
export function requestProblem(input: ScheduleRequest): string | null {
  try {
    checkSchedule(requestedSchedule(input));
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

const shown = (ms: number) => new Date(ms).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });

/** The schedule in words, for the approval card and the tool's answer. */
export function scheduleWords(schedule: TaskSchedule): string {
  switch (schedule.kind) {
    case "cron":
      return `cron "${schedule.expr}" (${schedule.tz ?? serverTimeZone()})`;
    case "every":
      return schedule.seconds % 60 === 0 ? `every ${schedule.seconds / 60} minute${schedule.seconds === 60 ? "" : "s"}` : `every ${schedule.seconds} seconds`;
    case "once":
      return `once, at ${schedule.at}`;
  }
}

/** The request as the approval card shows it: name, schedule, the next three times, the prompt. */
export function describeRequest(input: ScheduleRequest): string {
  let when: string;
  try {
    const schedule = requestedSchedule(input);
    const now = Date.now();
    const next = nextTimes(schedule, now, now, 3).map(shown);
    when = `${scheduleWords(schedule)}\nNext: ${next.join("; ") || "never"}`;
  } catch (err) {
    when = `(not a schedule: ${(err as Error).message})`;
  }
  return `${input.name}\n${when}\nRuns in: ${input.session === "this" ? "this session" : "a new session each time"}\nPrompt: ${input.prompt}`;
}
