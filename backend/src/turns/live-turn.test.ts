import { describe, expect, it } from "vitest";
import { EventIdClock, parseEventId } from "./event-ids.js";
import { LiveTurn } from "./live-turn.js";
import { MAX_QUEUED, TurnQueue } from "./turn-queue.js";

describe("LiveTurn", () => {
  it("each reader reads from where it joined, at its own pace: every event once, in order, and the end", () => {
    const clock = new EventIdClock(1000);
    const turn = new LiveTurn("s", () => clock.next());
    const a = turn.emit({ type: "token", content: "a" });
    const b = turn.emit({ type: "token", content: "b" });
    const fromStart = turn.cursor(null);
    const afterA = turn.cursor(a);
    let told = 0;
    const unwatch = turn.watch(() => told++);
    const text = (events: Array<{ id: number; event: { type: string; content?: string } }>) => events.map((e) => `${e.id}:${e.event.content ?? e.event.type}`);
    expect(text(fromStart.take(1))).toEqual([`${a}:a`]);
    turn.emit({ type: "final", content: "ab", duration_ms: 1 });
    expect(told).toBe(1);
    expect(text(afterA.take())).toEqual([`${b}:b`, `${b + 1}:ab`]);
    expect(afterA.done).toBe(false);
    turn.end();
    expect(told).toBe(2);
    expect(afterA.done).toBe(true);
    expect(fromStart.done).toBe(false);
    expect(text(fromStart.take())).toEqual([`${b}:b`, `${b + 1}:ab`]);
    expect(fromStart.done).toBe(true);
    unwatch();
    // A reader that comes after the end reads what it missed, and is done.
    const late = turn.cursor(b);
    expect(late.take().map((e) => e.id)).toEqual([b + 1]);
    expect(late.done).toBe(true);
    expect(turn.has(a)).toBe(true);
    expect(turn.has(a - 1)).toBe(false);
  });

  it("a subscriber that comes after the end is told the end at once (a task run subscribed late is never stuck running)", () => {
    const turn = new LiveTurn("s", () => 1);
    turn.emit({ type: "final", content: "done", duration_ms: 1 });
    turn.end();
    let ended = 0;
    turn.subscribe({ event: () => {}, end: () => ended++ });
    expect(ended).toBe(1);
  });

  it("every event passes the turn's cleaner before anyone hears it", () => {
    const turn = new LiveTurn("s", () => 1, (event) => (event.type === "token" ? { ...event, content: event.content.replace("sk-secret", "[secret removed]") } : event));
    const heard: string[] = [];
    turn.subscribe({ event: ({ event }) => heard.push(event.type === "token" ? event.content : event.type) });
    turn.emit({ type: "token", content: "key sk-secret" });
    expect(heard).toEqual(["key [secret removed]"]);
    expect(turn.events[0].event).toEqual({ type: "token", content: "key [secret removed]" });
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
