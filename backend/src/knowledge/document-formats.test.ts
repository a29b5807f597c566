import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { docx, epub, pptx, xlsx } from "../../test-support/office-fixtures.js";
import { docxSections, epubSections, htmlSections, pptxSections, xlsxSections } from "./document-formats.js";

describe("document formats", () => {
  it("Word: the paragraphs' text", async () => {
    const [section] = await docxSections(docx(["Quarterly report", "Revenue grew by 12 % & costs fell."]));
    expect(section.text).toBe("Quarterly report\n\nRevenue grew by 12 % & costs fell.");
  });

  it("PowerPoint: a section per slide, numbered, paragraphs as lines", async () => {
    expect(await pptxSections(pptx([["Roadmap", "Ship <beta> in May"], ["Risks"]]))).toEqual([
      { line: 1, text: "Roadmap\nShip <beta> in May" },
      { line: 2, text: "Risks" },
    ]);
  });

  it("Excel: each sheet by name, rows with shared strings and numbers", async () => {
    const sections = await xlsxSections(xlsx([{ name: "Budget", rows: [["Item", "Cost"], ["Tents", 240], ["Stoves", 95.5]] }, { name: "Empty", rows: [] }]));
    expect(sections).toEqual([{ line: 1, text: "# Budget\nItem | Cost\nTents | 240\nStoves | 95.5" }]);
  });

  it("EPUB: the chapters in spine order, as Markdown", async () => {
    const sections = await epubSections(epub([{ title: "One", paragraphs: ["The river was high."] }, { title: "Two", paragraphs: ["The bridge held."] }]));
    expect(sections.map((s) => s.text)).toEqual(["# One\n\nThe river was high.", "# Two\n\nThe bridge held."]);
    await expect(epubSections(docx(["not a book"]))).rejects.toThrow(/not an EPUB/);
  });

  it("HTML: the main content with its title, no scripts", async () => {
    const [section] = htmlSections(new TextEncoder().encode("<html><head><title>Notes</title><script>alert(1)</script></head><body><nav>menu</nav><main><p>Kiln at 1200 °C.</p></main></body></html>"));
    expect(section.text).toBe("# Notes\n\nKiln at 1200 °C.");
  });

  it("PowerPoint as ECMA-376 allows it: the slide list's order, any prefixes, references, fields, breaks and tables", async () => {
    // Slides reordered in the app keep their part names: the order is the presentation's sldIdLst.
    // Prefixes are the producer's choice (pr:, d:, rel: here); sldId has both id and rel:id.
    const presentation =
      `<pr:presentation xmlns:pr="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:rel="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
      `<pr:sldIdLst><pr:sldId id="257" rel:id="rId7"/><pr:sldId id="256" rel:id="rId3"/></pr:sldIdLst></pr:presentation>`;
    const rels =
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide1.xml"/>` +
      `<Relationship Id="rId7" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="/ppt/slides/slide2.xml"/></Relationships>`;
    const slide = (body: string) =>
      `<pr:sld xmlns:d="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pr="http://schemas.openxmlformats.org/presentationml/2006/main">` +
      `<pr:cSld><pr:spTree>${body}</pr:spTree></pr:cSld></pr:sld>`;
    const shape = (paragraphs: string) => `<pr:sp><pr:txBody><d:bodyPr/>${paragraphs}</pr:txBody></pr:sp>`;
    const data = zipSync({
      "ppt/presentation.xml": strToU8(presentation),
      "ppt/_rels/presentation.xml.rels": strToU8(rels),
      "ppt/slides/slide1.xml": strToU8(slide(shape(`<d:p><d:r><d:t>Made second</d:t></d:r></d:p>`))),
      "ppt/slides/slide2.xml": strToU8(
        slide(
          shape(`<d:p><d:r><d:rPr lang="fr-FR"/><d:t>Caf</d:t></d:r><d:r><d:t xml:space="preserve">&#233; &amp; cr&#xE8;me</d:t></d:r></d:p>`) +
            shape(`<d:p><d:r><d:t>Line one</d:t></d:r><d:br/><d:r><d:t>line two</d:t></d:r></d:p><d:p><d:fld id="{1}" type="slidenum"><d:t>7</d:t></d:fld></d:p>`) +
            `<pr:graphicFrame><d:graphic><d:graphicData><d:tbl><d:tr h="1"><d:tc><d:txBody><d:p><d:r><d:t>Cell &lt;A&gt;</d:t></d:r></d:p></d:txBody></d:tc></d:tr></d:tbl></d:graphicData></d:graphic></pr:graphicFrame>`,
        ),
      ),
    });
    expect(await pptxSections(data)).toEqual([
      { line: 1, text: "Café & crème\nLine one\nline two\n7\nCell <A>" },
      { line: 2, text: "Made second" },
    ]);
  });

  it("EPUB: the package file wherever the container says, prefixed OPF elements, an escaped href", async () => {
    const data = zipSync({
      mimetype: strToU8("application/epub+zip"),
      "META-INF/container.xml": strToU8(
        `<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile media-type="application/oebps-package+xml" full-path="book/pkg.opf"/></rootfiles></container>`,
      ),
      "book/pkg.opf": strToU8(
        `<opf:package xmlns:opf="http://www.idpf.org/2007/opf" version="2.0"><opf:manifest>` +
          `<opf:item href="ch%202.xhtml" id="b" media-type="application/xhtml+xml"/><opf:item media-type="application/xhtml+xml" id="a" href="ch1.xhtml"/>` +
          `</opf:manifest><opf:spine><opf:itemref idref="a"/><opf:itemref idref="b"/></opf:spine></opf:package>`,
      ),
      "book/ch1.xhtml": strToU8(`<html xmlns="http://www.w3.org/1999/xhtml"><body><p>First &amp; foremost.</p></body></html>`),
      "book/ch 2.xhtml": strToU8(`<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Then the rest.</p></body></html>`),
    });
    expect((await epubSections(data)).map((s) => s.text)).toEqual(["First & foremost.", "Then the rest."]);
  });
});
