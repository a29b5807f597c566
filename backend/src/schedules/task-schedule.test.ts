import { describe, expect, it } from "vitest";
import { checkSchedule, lastMissed, nextTimes } from "./task-schedule.js";

const iso = (ms: number) => new Date(ms).toISOString();

describe("task schedules", () => {
  it("a daily 02:30 in Europe/Berlin across both DST changes: croner's documented times", () => {
    const daily = { kind: "cron" as const, expr: "30 2 * * *", tz: "Europe/Berlin" };
    // Spring forward, 29 March 2026: 02:00 becomes 03:00, so 02:30 does not exist; it runs at 03:00 CEST.
    expect(nextTimes(daily, Date.parse("2026-03-27T12:00:00Z"), 0, 4).map(iso)).toEqual([
      "2026-03-28T01:30:00.000Z", // 02:30 CET
      "2026-03-29T01:00:00.000Z", // 03:00 CEST, the first minute after the gap
      "2026-03-30T00:30:00.000Z", // 02:30 CEST
      "2026-03-31T00:30:00.000Z",
    ]);
    // Fall back, 25 October 2026: 03:00 becomes 02:00, so 02:30 happens twice; it runs once, at the first.
    expect(nextTimes(daily, Date.parse("2026-10-23T12:00:00Z"), 0, 4).map(iso)).toEqual([
      "2026-10-24T00:30:00.000Z", // 02:30 CEST
      "2026-10-25T00:30:00.000Z", // 02:30 CEST, the first of the two
      "2026-10-26T01:30:00.000Z", // 02:30 CET
      "2026-10-27T01:30:00.000Z",
    ]);
  });

  it("refuses what cannot be a schedule, with the parser's reason", () => {
    expect(() => checkSchedule({ kind: "cron", expr: "61 * * * *" })).toThrow(/Invalid cron expression "61 \* \* \* \*": .*minute/);
    expect(() => checkSchedule({ kind: "cron", expr: "* * *" })).toThrow(/3 fields/);
    expect(() => checkSchedule({ kind: "cron", expr: "0 9 * * *", tz: "Mars/Olympus" })).toThrow(/Unknown time zone "Mars\/Olympus": .*Invalid time zone/);
    expect(() => checkSchedule({ kind: "once", at: "2020-01-01T09:00:00Z" })).toThrow(/has passed/);
    expect(() => checkSchedule({ kind: "once", at: "tomorrow" })).toThrow(/not an ISO date/);
    expect(() => checkSchedule({ kind: "every", seconds: 60 })).not.toThrow();
  });

  it("an interval counts from its anchor; what a down workbench missed is the latest time only", () => {
    const every = { kind: "every" as const, seconds: 10 };
    expect(nextTimes(every, 25_000, 0, 3)).toEqual([30_000, 40_000, 50_000]);
    expect(lastMissed(every, 30_000, 75_000, 0)).toBe(70_000);
    expect(lastMissed(every, 70_000, 75_000, 0)).toBeNull();
    const cron = { kind: "cron" as const, expr: "*/2 * * * * *", tz: "UTC" };
    expect(lastMissed(cron, Date.parse("2026-01-01T00:00:00Z"), Date.parse("2026-01-01T00:00:09Z"), 0)).toBe(Date.parse("2026-01-01T00:00:08Z"));
  });

  it("a seconds cron down for 30 hours: the last missed second, found without stepping through 108,000 of them (finding 6)", () => {
    const cron = { kind: "cron" as const, expr: "* * * * * *", tz: "UTC" };
    const now = Date.parse("2026-01-02T06:00:00.400Z");
    expect(lastMissed(cron, now - 30 * 3_600_000, now, 0)).toBe(Date.parse("2026-01-02T06:00:00Z"));
    expect(lastMissed({ ...cron, expr: "0 9 * * *" }, Date.parse("2026-01-01T10:00:00Z"), now, 0)).toBeNull();
    expect(lastMissed({ ...cron, expr: "0 9 * * *" }, Date.parse("2025-12-31T10:00:00Z"), now, 0)).toBe(Date.parse("2026-01-01T09:00:00Z"));
    expect(lastMissed({ kind: "once", at: "2026-01-01T12:00:00Z" }, 0, now, 0)).toBe(Date.parse("2026-01-01T12:00:00Z"));
  });

  it("runs closer together than the minimum interval are refused, whichever way they are written", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(() => checkSchedule({ kind: "cron", expr: "*/2 * * * * *" }, now, 60)).toThrow(/runs 2 s apart; a task runs at most once every 60 s/);
    expect(() => checkSchedule({ kind: "every", seconds: 30 }, now, 60)).toThrow(/30 s apart/);
    expect(() => checkSchedule({ kind: "cron", expr: "0,1 9 * * *", tz: "UTC" }, now, 120)).toThrow(/60 s apart/);
    expect(() => checkSchedule({ kind: "cron", expr: "* * * * *" }, now, 60)).not.toThrow();
    expect(() => checkSchedule({ kind: "every", seconds: 60 }, now, 60)).not.toThrow();
  });
});
