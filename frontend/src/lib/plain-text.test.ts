import { describe, expect, it } from "vitest";
import { markdownToPlain } from "./plain-text";

describe("markdownToPlain", () => {
  it("keeps the words and drops the marks", () => {
    expect(markdownToPlain("The **weather** in _Paris_ is [sunny](https://example.com) and `22°C`.")).toBe("The weather in Paris is sunny and 22°C.");
  });
  it("joins blocks into one line", () => {
    expect(markdownToPlain("# Forecast\n\n- rain\n- wind")).toBe("Forecast rain wind");
  });
  it("reads a snippet cut in the middle of a mark", () => {
    expect(markdownToPlain("…said **it will ra")).toBe("…said **it will ra");
  });
});
