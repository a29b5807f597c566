import { describe, expect, it } from "vitest";
import { ThinkTagSplitter } from "./think-tags.js";

function split(pieces: string[]) {
  const splitter = new ThinkTagSplitter();
  let thought = "";
  let text = "";
  for (const piece of [...pieces.map((p) => splitter.push(p)), splitter.end()]) {
    thought += piece.thought;
    text += piece.text;
  }
  return { thought, text };
}

const chunked = (s: string, n: number) => s.match(new RegExp(`[\\s\\S]{1,${n}}`, "g")) ?? [];

describe("ThinkTagSplitter", () => {
  it("takes the reasoning out of the content, whatever the chunking", () => {
    const content = "<think>\nStep one.\nStep two.\n</think>\n\nThe answer.";
    for (const size of [1, 2, 3, 5, 7, 100]) {
      expect(split(chunked(content, size))).toEqual({ thought: "\nStep one.\nStep two.\n", text: "\n\nThe answer." });
    }
  });

  it("leaves content without tags alone, and a tag inside an answer as written", () => {
    expect(split(["Hello ", "there."])).toEqual({ thought: "", text: "Hello there." });
    expect(split(["Use the ", "<think>", " tag."])).toEqual({ thought: "", text: "Use the <think> tag." });
    expect(split(["  ", "\n<thi", "nk>hm</thi", "nk>ok"])).toEqual({ thought: "hm", text: "ok" });
  });

  it("gives back a held partial tag when the stream ends", () => {
    expect(split(["<thi"])).toEqual({ thought: "", text: "<thi" });
    expect(split(["<think>unfinished </thi"])).toEqual({ thought: "unfinished </thi", text: "" });
    expect(split(["a <"])).toEqual({ thought: "", text: "a <" });
  });
});
