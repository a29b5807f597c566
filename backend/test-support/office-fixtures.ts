/**
 * Minimal documents in the formats the knowledge base reads, built from their published structure
 * (ECMA-376 Office Open XML for .docx/.pptx/.xlsx, EPUB 3's container and package files): the parts
 * a real file of that kind always has, each holding the given text.
 */
import { strToU8, zipSync } from "fflate";

const xml = (body: string) => strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`);
const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";

function contentTypes(overrides: Array<[string, string]>) {
  return xml(
    `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
      `<Default Extension="xml" ContentType="application/xml"/>` +
      overrides.map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`).join("") +
      `</Types>`,
  );
}
const rootRels = (target: string) =>
  xml(`<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="${target}"/></Relationships>`);

/** A Word document: one `<w:p>` per paragraph. */
export function docx(paragraphs: string[]): Uint8Array {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`).join("");
  return zipSync({
    "[Content_Types].xml": contentTypes([["/word/document.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"]]),
    "_rels/.rels": rootRels("word/document.xml"),
    "word/document.xml": xml(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`),
  });
}

/** A presentation: per slide, its paragraphs (`<a:p>` of `<a:t>` runs) in shapes. */
export function pptx(slides: string[][]): Uint8Array {
  const files: Record<string, Uint8Array> = {
    "[Content_Types].xml": contentTypes([
      ["/ppt/presentation.xml", "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"],
      ...slides.map((_, i): [string, string] => [`/ppt/slides/slide${i + 1}.xml`, "application/vnd.openxmlformats-officedocument.presentationml.slide+xml"]),
    ]),
    "_rels/.rels": rootRels("ppt/presentation.xml"),
    "ppt/presentation.xml": xml(
      `<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="${REL}"><p:sldIdLst>` +
        slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join("") +
        `</p:sldIdLst></p:presentation>`,
    ),
    "ppt/_rels/presentation.xml.rels": xml(
      `<Relationships xmlns="${PKG_REL}">` + slides.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/slide" Target="slides/slide${i + 1}.xml"/>`).join("") + `</Relationships>`,
    ),
  };
  slides.forEach((paragraphs, i) => {
    const text = paragraphs.map((p) => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${esc(p)}</a:t></a:r></a:p>`).join("");
    files[`ppt/slides/slide${i + 1}.xml`] = xml(
      `<p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main">` +
        `<p:cSld><p:spTree><p:sp><p:txBody><a:bodyPr/>${text}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`,
    );
  });
  return zipSync(files);
}

/** A workbook: per sheet, its rows; strings go to the shared-strings table as Excel writes them, numbers inline. */
export function xlsx(sheets: Array<{ name: string; rows: Array<Array<string | number>> }>): Uint8Array {
  const shared: string[] = [];
  const column = (i: number) => String.fromCharCode(65 + i);
  const files: Record<string, Uint8Array> = {
    "[Content_Types].xml": contentTypes([
      ["/xl/workbook.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"],
      ["/xl/sharedStrings.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"],
      ...sheets.map((_, i): [string, string] => [`/xl/worksheets/sheet${i + 1}.xml`, "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"]),
    ]),
    "_rels/.rels": rootRels("xl/workbook.xml"),
    "xl/workbook.xml": xml(
      `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}"><sheets>` +
        sheets.map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("") +
        `</sheets></workbook>`,
    ),
    "xl/_rels/workbook.xml.rels": xml(
      `<Relationships xmlns="${PKG_REL}">` +
        sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join("") +
        `<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ),
  };
  sheets.forEach((sheet, i) => {
    const rows = sheet.rows
      .map((row, r) =>
        `<row r="${r + 1}">` +
        row
          .map((value, c) => {
            const ref = `${column(c)}${r + 1}`;
            if (typeof value === "number") return `<c r="${ref}"><v>${value}</v></c>`;
            shared.push(value);
            return `<c r="${ref}" t="s"><v>${shared.length - 1}</v></c>`;
          })
          .join("") +
        `</row>`,
      )
      .join("");
    files[`xl/worksheets/sheet${i + 1}.xml`] = xml(`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`);
  });
  files["xl/sharedStrings.xml"] = xml(
    `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${shared.length}" uniqueCount="${shared.length}">` +
      shared.map((s) => `<si><t>${esc(s)}</t></si>`).join("") +
      `</sst>`,
  );
  return zipSync(files);
}

/** An EPUB 3 book: the stored mimetype first, the container, a package file listing the chapters in its spine. */
export function epub(chapters: Array<{ title: string; paragraphs: string[] }>): Uint8Array {
  const files: Record<string, Uint8Array | [Uint8Array, { level: 0 }]> = {
    mimetype: [strToU8("application/epub+zip"), { level: 0 }],
    "META-INF/container.xml": xml(
      `<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>` +
        `<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    ),
    "OEBPS/content.opf": xml(
      `<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">` +
        `<dc:identifier id="id">urn:uuid:00000000-0000-4000-8000-000000000000</dc:identifier><dc:title>Fixture</dc:title><dc:language>en</dc:language></metadata><manifest>` +
        chapters.map((_, i) => `<item id="c${i + 1}" href="text/chapter${i + 1}.xhtml" media-type="application/xhtml+xml"/>`).join("") +
        `</manifest><spine>` +
        chapters.map((_, i) => `<itemref idref="c${i + 1}"/>`).join("") +
        `</spine></package>`,
    ),
  };
  chapters.forEach((chapter, i) => {
    files[`OEBPS/text/chapter${i + 1}.xhtml`] = xml(
      `<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${esc(chapter.title)}</title></head><body>` +
        `<h1>${esc(chapter.title)}</h1>${chapter.paragraphs.map((p) => `<p>${esc(p)}</p>`).join("")}</body></html>`,
    );
  });
  return zipSync(files);
}
