import { setImmediate as nextTurn } from "node:timers/promises";
import type { ChatEvent } from "@mini-openclaw/protocol";
import { describe, expect, it } from "vitest";
import { DeltaCoalescer } from "./delta-coalescer.js";

describe("DeltaCoalescer", () => {
  it("sends the first delta at once and joins those that arrive before the event loop comes round", async () => {
    const events: ChatEvent[] = [];
    const deltas = new DeltaCoalescer((e) => events.push(e));
    deltas.push("token", "a");
    expect(events).toEqual([{ type: "token", content: "a" }]);
    for (const piece of ["b", "c", "d"]) deltas.push("token", piece);
    expect(events).toHaveLength(1);
    await nextTurn();
    expect(events).toEqual([
      { type: "token", content: "a" },
      { type: "token", content: "bcd" },
    ]);
  });

  it("a delta per turn of the event loop (a model at its own pace) goes out alone and at once", async () => {
    const events: ChatEvent[] = [];
    const deltas = new DeltaCoalescer((e) => events.push(e));
    for (const piece of ["one ", "two ", "three"]) {
      deltas.push("token", piece);
      expect(events.at(-1)).toEqual({ type: "token", content: piece });
      await nextTurn();
    }
    expect(events).toHaveLength(3);
  });

  it("keeps reasoning and text apart and in order; flush sends what waits", async () => {
    const events: ChatEvent[] = [];
    const deltas = new DeltaCoalescer((e) => events.push(e));
    deltas.push("thought", "x");
    deltas.push("thought", "y");
    deltas.push("token", "1");
    deltas.push("token", "2");
    deltas.push("thought", "z");
    deltas.flush();
    expect(events).toEqual([
      { type: "thought", content: "x" },
      { type: "thought", content: "y" },
      { type: "token", content: "12" },
      { type: "thought", content: "z" },
    ]);
    await nextTurn();
    expect(events).toHaveLength(4);
  });
});
