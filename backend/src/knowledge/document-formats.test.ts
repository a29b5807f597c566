import { describe, expect, it } from "vitest";
import { docx, epub, pptx, xlsx } from "../../test-support/office-fixtures.js";
import { docxSections, epubSections, htmlSections, pptxSections, xlsxSections, xmlUnescape } from "./document-formats.js";

describe("document formats", () => {
  it("Word: the paragraphs' text", async () => {
    const [section] = await docxSections(docx(["Quarterly report", "Revenue grew by 12 % & costs fell."]));
    expect(section.text).toBe("Quarterly report\n\nRevenue grew by 12 % & costs fell.");
  });

  it("PowerPoint: a section per slide, numbered, paragraphs as lines", () => {
    expect(pptxSections(pptx([["Roadmap", "Ship <beta> in May"], ["Risks"]]))).toEqual([
      { line: 1, text: "Roadmap\nShip <beta> in May" },
      { line: 2, text: "Risks" },
    ]);
  });

  it("Excel: each sheet by name, rows with shared strings and numbers", () => {
    const sections = xlsxSections(xlsx([{ name: "Budget", rows: [["Item", "Cost"], ["Tents", 240], ["Stoves", 95.5]] }, { name: "Empty", rows: [] }]));
    expect(sections).toEqual([{ line: 1, text: "# Budget\nItem | Cost\nTents | 240\nStoves | 95.5" }]);
  });

  it("EPUB: the chapters in spine order, as Markdown", () => {
    const sections = epubSections(epub([{ title: "One", paragraphs: ["The river was high."] }, { title: "Two", paragraphs: ["The bridge held."] }]));
    expect(sections.map((s) => s.text)).toEqual(["# One\n\nThe river was high.", "# Two\n\nThe bridge held."]);
    expect(() => epubSections(docx(["not a book"]))).toThrow(/not an EPUB/);
  });

  it("HTML: the main content with its title, no scripts", () => {
    const [section] = htmlSections(new TextEncoder().encode("<html><head><title>Notes</title><script>alert(1)</script></head><body><nav>menu</nav><main><p>Kiln at 1200 °C.</p></main></body></html>"));
    expect(section.text).toBe("# Notes\n\nKiln at 1200 °C.");
  });

  it("decodes XML entities and character references", () => {
    expect(xmlUnescape("a &amp; b &lt;c&gt; &#233; &#x1F600; &bogus;")).toBe("a & b <c> é 😀 &bogus;");
  });
});
