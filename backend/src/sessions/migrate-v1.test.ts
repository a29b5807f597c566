import { foldStreamingEntries, type V1Entry } from "./migrate-v1.js";
import { describe, expect, it } from "vitest";


const ts = "2026-11-23T00:00:00.000Z";
const e = (entry: Omit<V1Entry, "ts">) => ({ ts, ...entry }) as V1Entry;

describe("foldStreamingEntries", () => {
  it("drops checkpoints spent by the step's whole entry", () => {
    const entries = [
      e({ type: "user", content: "hi" }),
      e({ type: "streaming", channel: "thought", content: "Let me ", step: 1 }),
      e({ type: "thought", content: "Let me think.", step: 1 }),
      e({ type: "streaming", channel: "text", content: "Hello ", step: 1 }),
      e({ type: "streaming", channel: "text", content: "there", step: 1 }),
      e({ type: "assistant", content: "Hello there!", step: 1, duration_ms: 5 }),
    ];
    expect(foldStreamingEntries(entries)).toEqual([entries[0], entries[2], entries[5]]);
  });

  it("turns what a crash left into the step's text, marked interrupted, where it began", () => {
    const entries = [
      e({ type: "user", content: "hi" }),
      e({ type: "thought", content: "Plan.", step: 1 }),
      e({ type: "tool", content: "", step: 1, tool: { id: "c1", name: "read_file", input: {}, output: "x", ok: true, duration_ms: 1 } }),
      e({ type: "streaming", channel: "text", content: "The answer ", step: 2 }),
      e({ type: "review", content: "a review that landed meanwhile", advice: "" }),
      e({ type: "streaming", channel: "text", content: "is 42", step: 2 }),
    ];
    expect(foldStreamingEntries(entries)).toEqual([
      entries[0],
      entries[1],
      entries[2],
      { type: "assistant", ts, content: "The answer is 42", step: 2, partial: true, interrupted: true },
      entries[4],
    ]);
  });

  it("closes an interrupted turn when the next one starts, and leaves files without checkpoints alone", () => {
    const entries = [
      e({ type: "user", content: "one" }),
      e({ type: "streaming", channel: "thought", content: "hmm", step: 1 }),
      e({ type: "user", content: "two" }),
      e({ type: "assistant", content: "fine", step: 1 }),
    ];
    expect(foldStreamingEntries(entries)).toEqual([entries[0], { type: "thought", ts, content: "hmm", step: 1, interrupted: true }, entries[2], entries[3]]);
    const plain = [entries[0], entries[3]];
    expect(foldStreamingEntries(plain)).toBe(plain);
  });
});
