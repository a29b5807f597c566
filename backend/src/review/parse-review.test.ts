import { describe, expect, it } from "vitest";
import { parseReview } from "./parse-review.js";

describe("parseReview", () => {
  it("reads the JSON whether bare, fenced, or after some prose", () => {
    const expected = { advice: "Cite it.", record: "No source." };
    expect(parseReview('{"advice": "Cite it.", "record": "No source."}')).toEqual(expected);
    expect(parseReview('```json\n{"advice": " Cite it. ", "record": "No source."}\n```')).toEqual(expected);
    expect(parseReview('Here is my review: {"advice": "Cite it.", "record": "No source."} Thanks.')).toEqual(expected);
  });

  it("keeps any other answer whole as the record, with no advice", () => {
    expect(parseReview("Looks fine to me.")).toEqual({
      advice: "",
      record: 'The reviewer did not answer with {"advice", "record"} JSON; its answer:\n\nLooks fine to me.',
    });
    expect(parseReview('{"advice": 3, "record": "x"}').advice).toBe("");
  });
});
