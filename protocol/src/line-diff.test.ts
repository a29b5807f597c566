import { describe, expect, it } from "vitest";
import { lineDiff, withContext } from "./line-diff.js";

describe("lineDiff", () => {
  it("marks removed and added lines and keeps the common ones", () => {
    expect(lineDiff("a\nb\nc", "a\nB\nc\nd")).toEqual([
      { kind: "same", text: "a" },
      { kind: "removed", text: "b" },
      { kind: "added", text: "B" },
      { kind: "same", text: "c" },
      { kind: "added", text: "d" },
    ]);
    expect(lineDiff("", "x")).toEqual([{ kind: "added", text: "x" }]);
  });

  it("shows the changes with a line of context and marks what it skipped", () => {
    const lines = lineDiff("1\n2\n3\n4\n5\n6", "1\n2\n3\n4\n5\nsix")!;
    expect(withContext(lines)).toEqual([null, { kind: "same", text: "5" }, { kind: "removed", text: "6" }, { kind: "added", text: "six" }]);
  });
});
