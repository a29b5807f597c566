import { describe, expect, it } from "vitest";
import { ChunkStore } from "./chunk-store.js";

describe("ChunkStore", () => {
  it("round-trips chunks (any text, shared paths) through its binary form, and goes on taking changes", async () => {
    const store = new ChunkStore();
    store.set({ id: 3, path: "knowledge/a.md", index: 0, line: 1, text: "Sauerkraut — fermented cabbage, ½ salt, 🥬" });
    store.set({ id: 7, path: "knowledge/a.md", index: 1, line: 12, text: "" });
    store.set({ id: 9, path: "knowledge/b/ü.txt", index: 0, line: 1, text: "plain" });
    store.delete(7);
    const copy = ChunkStore.fromBuffer(await store.toBuffer(1));
    expect(copy.size).toBe(2);
    expect(copy.get(3)).toEqual(store.get(3));
    expect(copy.get(9)).toEqual({ id: 9, path: "knowledge/b/ü.txt", index: 0, line: 1, text: "plain" });
    expect(copy.get(7)).toBeUndefined();
    copy.set({ id: 10, path: "knowledge/c.md", index: 0, line: 4, text: "new" });
    const again = ChunkStore.fromBuffer(await copy.toBuffer());
    expect([...again.ids()].sort()).toEqual([10, 3, 9].sort());
    expect(again.get(3)!.text).toBe("Sauerkraut — fermented cabbage, ½ salt, 🥬");
    const bytes = await again.toBuffer();
    expect(() => ChunkStore.fromBuffer(bytes.subarray(0, bytes.byteLength - 1))).toThrow(/does not match|damaged/);
  });
});
