import { describe, expect, it } from "vitest";
import { linkCitations, parseCiteHref } from "./citations";

describe("linkCitations", () => {
  it("links a cited source with its line, in both forms the agent writes", () => {
    expect(linkCitations("Ferment for three weeks (knowledge/ferments.md (line 3)).")).toBe(
      "Ferment for three weeks ([knowledge/ferments.md (line 3)](#cite:knowledge%2Fferments.md%3A3)).",
    );
    expect(linkCitations("See knowledge/space/orbits.txt (chunk 0, line 1)")).toBe("See [knowledge/space/orbits.txt (chunk 0, line 1)](#cite:knowledge%2Fspace%2Forbits.txt%3A1)");
    expect(linkCitations("Source: knowledge/garden.md")).toBe("Source: [knowledge/garden.md](#cite:knowledge%2Fgarden.md%3A1)");
  });

  it("links a PDF page and a slide (the page travels as the line; the Inspector maps it)", () => {
    expect(linkCitations("Costs fell (knowledge/annual.pdf (page 2)).")).toBe("Costs fell ([knowledge/annual.pdf (page 2)](#cite:knowledge%2Fannual.pdf%3A2)).");
    expect(linkCitations("knowledge/deck.pptx (chunk 1, slide 4)")).toBe("[knowledge/deck.pptx (chunk 1, slide 4)](#cite:knowledge%2Fdeck.pptx%3A4)");
  });

  it("leaves code, inline code and existing links alone", () => {
    const text = "```\nknowledge/a.md (line 2)\n```\nand `knowledge/b.md` and [x](knowledge/c.md)";
    expect(linkCitations(text)).toBe(text);
  });

  it("reads its links back", () => {
    expect(parseCiteHref("#cite:knowledge%2Fferments.md%3A3")).toEqual({ path: "knowledge/ferments.md", line: 3 });
    expect(parseCiteHref("https://example.com")).toBeNull();
  });
});
