/**
 * Text out of the formats people keep besides Markdown, text and PDF. Word through mammoth (the
 * maintained converter most tools use); PowerPoint, Excel and EPUB are zip archives of XML whose
 * text sits in a few documented elements (ECMA-376, EPUB 3), read with fflate; HTML through the
 * converter `fetch_url` uses. Each returns sections: a slide, a sheet, a chapter, or the whole text.
 */
import { XMLParser } from "fast-xml-parser";
import { unzipSync } from "fflate";
import { htmlToMarkdown } from "../net/html-to-markdown.js";
import { decodeText } from "./text-encoding.js";

export interface Section {
  /** Where the section starts, as a citation gives it: a slide number, or 1. */
  line: number;
  text: string;
}

/** An archive entry unpacked is capped: a document's text never needs more. */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

function unzipSome(data: Uint8Array, wanted: (name: string) => boolean): Record<string, string> {
  const files = unzipSync(data, { filter: (file) => wanted(file.name) && file.originalSize <= MAX_ENTRY_BYTES });
  const decoder = new TextDecoder();
  return Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, decoder.decode(bytes)]));
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
/** XML character data as text: entities and character references decoded. */
export function xmlUnescape(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, code: string) => {
    if (code[0] !== "#") return ENTITIES[code.toLowerCase()] ?? whole;
    const n = code[1].toLowerCase() === "x" ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
    return Number.isFinite(n) && n <= 0x10ffff ? String.fromCodePoint(n) : whole;
  });
}

/** The text of every `<tag>` element (no nesting inside it), in order. */
function texts(xml: string, tag: string): string[] {
  return [...xml.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([^<]*)</${tag}>`, "g"))].map((m) => xmlUnescape(m[1]));
}

const byNumber = (a: string, b: string) => Number(/(\d+)\.xml$/.exec(a)?.[1] ?? 0) - Number(/(\d+)\.xml$/.exec(b)?.[1] ?? 0);

export async function docxSections(data: Uint8Array): Promise<Section[]> {
  const mammoth = await import("mammoth");
  const { value } = await mammoth.extractRawText({ buffer: Buffer.from(data) });
  return [{ line: 1, text: value.replace(/\n{3,}/g, "\n\n").trim() }];
}

/** One section per slide, its paragraphs (`<a:p>`) as lines, with the slide's number. */
export function pptxSections(data: Uint8Array): Section[] {
  const slides = unzipSome(data, (name) => /^ppt\/slides\/slide\d+\.xml$/.test(name));
  return Object.keys(slides)
    .sort(byNumber)
    .map((name) => {
      const paragraphs = slides[name].split(/<\/a:p>/).map((p) => texts(p, "a:t").join("")).filter((p) => p.trim() !== "");
      return { line: Number(/(\d+)\.xml$/.exec(name)![1]), text: paragraphs.join("\n") };
    })
    .filter((s) => s.text !== "");
}

/** SpreadsheetML parts as objects: namespace prefixes dropped (some producers write `x:row`), every value a string. */
const spreadsheetXml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // Character references (openpyxl writes é as &#233;) decoded too, not only the five named entities.
  htmlEntities: true,
  isArray: (name) => ["sheet", "Relationship", "si", "r", "row", "c"].includes(name),
});

type XmlNode = Record<string, unknown> | string | undefined;
/** The text of a `<t>` (a string, or an element with attributes such as xml:space and its `#text`). */
const textOf = (t: XmlNode): string => (t === undefined ? "" : typeof t === "string" ? t : String(t["#text"] ?? ""));
/** A string item (`<si>`, `<is>`): its plain `<t>`, or its rich-text runs' `<t>`s joined. */
const stringItem = (item: XmlNode): string => {
  if (item === undefined || typeof item === "string") return item ?? "";
  const runs = (item.r as Array<Record<string, XmlNode>> | undefined) ?? [];
  return textOf(item.t as XmlNode) + runs.map((run) => textOf(run.t)).join("");
};

/**
 * One section per sheet (in the workbook's order, by its names): each row's values joined with
 * " | ". Sheets are found through the workbook's relationships (whatever their attribute order or
 * target form: openpyxl writes absolute targets, Excel relative ones); strings shared or inline.
 */
export function xlsxSections(data: Uint8Array): Section[] {
  const files = unzipSome(data, (name) => /^xl\/(workbook\.xml|sharedStrings\.xml|_rels\/workbook\.xml\.rels|worksheets\/[^/]+\.xml)$/.test(name));
  const parse = (name: string) => (files[name] === undefined ? {} : (spreadsheetXml.parse(files[name]) as Record<string, Record<string, unknown>>));
  const sst = parse("xl/sharedStrings.xml").sst as { si?: XmlNode[] } | undefined;
  const shared = (sst?.si ?? []).map(stringItem);
  const rels = ((parse("xl/_rels/workbook.xml.rels").Relationships as { Relationship?: Array<Record<string, string>> } | undefined)?.Relationship ?? []);
  const targets = new Map(rels.map((r) => [r.Id, r.Target]));
  const sheets = ((parse("xl/workbook.xml").workbook as { sheets?: { sheet?: Array<Record<string, string>> } } | undefined)?.sheets?.sheet ?? []).map((sheet) => {
    const target = targets.get(sheet.id) ?? "";
    return { name: sheet.name ?? "", path: target.startsWith("/") ? target.slice(1) : `xl/${target}` };
  });
  return sheets.flatMap(({ name, path }) => {
    if (files[path] === undefined) return [];
    const rows = ((parse(path).worksheet as { sheetData?: { row?: Array<{ c?: Array<Record<string, XmlNode>> }> } } | undefined)?.sheetData?.row ?? []).map((row) =>
      (row.c ?? [])
        .map((cell) => {
          const type = cell.t as string | undefined;
          if (type === "inlineStr") return stringItem(cell.is);
          const value = textOf(cell.v);
          return type === "s" ? (shared[Number(value)] ?? "") : value;
        })
        .filter((v) => v !== "")
        .join(" | "),
    );
    const text = rows.filter((r) => r !== "").join("\n");
    return text ? [{ line: 1, text: `# ${name}\n${text}` }] : [];
  });
}

/** The chapters in reading order (the package's spine), as Markdown. */
export function epubSections(data: Uint8Array): Section[] {
  const files = unzipSome(data, (name) => /\.(xml|opf|x?html?)$/i.test(name));
  const rootfile = /<rootfile\b[^>]*\bfull-path="([^"]+)"/.exec(files["META-INF/container.xml"] ?? "")?.[1];
  const opf = rootfile ? files[rootfile] : undefined;
  if (!rootfile || !opf) throw new Error("not an EPUB: META-INF/container.xml names no package file");
  const base = rootfile.includes("/") ? rootfile.slice(0, rootfile.lastIndexOf("/") + 1) : "";
  const hrefs = new Map([...opf.matchAll(/<item\b([^>]*)\/?>/g)].map((m) => [/\bid="([^"]+)"/.exec(m[1])?.[1], /\bhref="([^"]+)"/.exec(m[1])?.[1]]));
  const spine = [...opf.matchAll(/<itemref\b[^>]*\bidref="([^"]+)"/g)].map((m) => hrefs.get(m[1])).filter((h): h is string => Boolean(h));
  return spine.flatMap((href) => {
    const html = files[`${base}${decodeURIComponent(href)}`];
    const markdown = html ? htmlToMarkdown(html).markdown : "";
    return markdown ? [{ line: 1, text: markdown }] : [];
  });
}

export function htmlSections(data: Uint8Array): Section[] {
  const { title, markdown } = htmlToMarkdown(decodeText(data));
  const text = title && !markdown.startsWith(`# ${title}`) ? `# ${title}\n\n${markdown}` : markdown;
  return text ? [{ line: 1, text }] : [];
}
