import { describe, expect, it } from "vitest";
import { EventIdClock, parseEventId } from "./event-ids.js";
import { LiveTurn } from "./live-turn.js";
import { MAX_QUEUED, TurnQueue } from "./turn-queue.js";

describe("LiveTurn", () => {
  it("replays what a late reader missed, then delivers the rest live, each event once, in order", () => {
    const clock = new EventIdClock(1000);
    const turn = new LiveTurn("s", () => clock.next());
    const a = turn.emit({ type: "token", content: "a" });
    const b = turn.emit({ type: "token", content: "b" });
    const all: string[] = [];
    const afterA: string[] = [];
    let ended = 0;
    turn.subscribe(null, (e) => all.push(`${e.id}:${e.event.type === "token" ? e.event.content : e.event.type}`), () => ended++);
    turn.subscribe(a, (e) => afterA.push(e.event.type === "token" ? e.event.content : e.event.type), () => ended++);
    turn.emit({ type: "final", content: "ab", duration_ms: 1 });
    turn.end();
    expect(all).toEqual([`${a}:a`, `${b}:b`, `${b + 1}:final`]);
    expect(afterA).toEqual(["b", "final"]);
    expect(ended).toBe(2);
    expect(turn.events[2].frame).toBe(`id: ${b + 1}\ndata: {"type":"final","content":"ab","duration_ms":1}\n\n`);
    // A reader that comes after the end gets the replay and its end at once.
    const late: number[] = [];
    turn.subscribe(b, (e) => late.push(e.id), () => ended++);
    expect(late).toEqual([b + 1]);
    expect(ended).toBe(3);
    expect(turn.has(a)).toBe(true);
    expect(turn.has(a - 1)).toBe(false);
  });
});

describe("event ids", () => {
  it("start above what a server started earlier handed out, and never go back", () => {
    const earlier = new EventIdClock(1_700_000_000_000);
    const ids = [earlier.next(), earlier.next()];
    const later = new EventIdClock(1_700_000_000_005);
    expect(later.next()).toBeGreaterThan(ids[1]);
    later.atLeast(9e15);
    expect(later.next()).toBe(9e15 + 1);
    later.atLeast(5);
    expect(later.next()).toBe(9e15 + 2);
  });

  it("parses only positive integers a client could have had", () => {
    expect(parseEventId("42")).toBe(42);
    for (const bad of ["", "0", "-1", "1.5", "1e3", "abc", " 7", "99999999999999999"]) expect(parseEventId(bad)).toBeNull();
  });
});

describe("TurnQueue", () => {
  it("keeps order, takes steers out apart from follow-ups, and refuses past the cap", () => {
    const queue = new TurnQueue();
    const one = queue.add("s", "one", "follow_up");
    queue.add("s", "steer", "steer");
    queue.add("s", "two", "follow_up", false);
    expect(queue.hasSteer("s")).toBe(true);
    expect(queue.takeSteers("s").map((q) => q.message)).toEqual(["steer"]);
    expect(queue.list("s").map((q) => [q.message, q.tools])).toEqual([
      ["one", undefined],
      ["two", false],
    ]);
    expect(queue.remove("s", one.id)).toBe(true);
    expect(queue.shift("s")?.message).toBe("two");
    expect(queue.list("s")).toEqual([]);
    for (let i = 0; i < MAX_QUEUED; i++) queue.add("t", `m${i}`, "follow_up");
    expect(() => queue.add("t", "more", "follow_up")).toThrow(/20 queued/);
    expect(queue.clear("t")).toHaveLength(MAX_QUEUED);
  });
});
