import { describe, expect, it } from "vitest";
import { ThinkTagSplitter } from "./think-tags.js";

/** Applies the pieces the way the stream does: a late thought takes the streamed text's end back. */
function split(pieces: string[]) {
  const splitter = new ThinkTagSplitter();
  let thought = "";
  let text = "";
  for (const piece of [...pieces.map((p) => splitter.push(p)), splitter.end()]) {
    if (piece.lateThought > 0) {
      thought += text.slice(text.length - piece.lateThought);
      text = text.slice(0, text.length - piece.lateThought);
    }
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

  it("takes a lone </think> (the template opened the tag) as the end of reasoning streamed as text, once", () => {
    const content = "The user asks for a number.\nI will say 42.\n</think>\n\nIt is 42. A </think> later is text.";
    for (const size of [1, 3, 8, 200]) {
      expect(split(chunked(content, size))).toEqual({ thought: "The user asks for a number.\nI will say 42.\n", text: "\n\nIt is 42. A </think> later is text." });
    }
  });
});
