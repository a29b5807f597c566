import { describe, expect, it } from "vitest";
import { applyHunk, proposedContent } from "./proposal-hunks.js";

describe("a proposal's hunks on the file as it is now", () => {
  const file = "# Memory\n- a\n- b\n";
  it("re-base over an edit elsewhere: the text it names is found where it is now", () => {
    expect(applyHunk(`# Memory\n- new first line\n- a\n- b\n`, { op: "change", old: "- b", text: "- B" })).toEqual({ content: "# Memory\n- new first line\n- a\n- B\n" });
  });
  it("are stale when the text they change is gone or twice in the file, and a new file's place is taken", () => {
    expect(applyHunk(file, { op: "remove", old: "- c" })).toMatchObject({ stale: expect.stringMatching(/no longer in the file/) });
    expect(applyHunk(`${file}- b\n`, { op: "remove", old: "- b" })).toMatchObject({ stale: expect.stringMatching(/more than once/) });
    expect(applyHunk(file, { op: "create", text: "x" })).toMatchObject({ stale: expect.stringMatching(/exists now/) });
    expect(applyHunk(null, { op: "add", text: "x" })).toMatchObject({ stale: expect.stringMatching(/not there/) });
  });
  it("add at the end (a line break first when the file has none), and a removed line takes its line break", () => {
    expect(applyHunk("# Memory", { op: "add", text: "- c" })).toEqual({ content: "# Memory\n- c\n" });
    expect(applyHunk(file, { op: "remove", old: "- a" })).toEqual({ content: "# Memory\n- b\n" });
  });
  it("the diff's right side applies the pending ones in order, skipping what is stale or decided", () => {
    const hunks = [
      { op: "add" as const, text: "- c", state: "pending" as const },
      { op: "remove" as const, old: "- gone", state: "pending" as const },
      { op: "change" as const, old: "- a", text: "- A", state: "rejected" as const },
    ];
    expect(proposedContent(file, hunks)).toBe("# Memory\n- a\n- b\n- c\n");
  });
});
