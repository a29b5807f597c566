/**
 * Text out of the formats people keep besides Markdown, text and PDF. Word through mammoth (the
 * maintained converter most tools use); PowerPoint, Excel and EPUB are zip archives of XML whose
 * text sits in a few documented elements (ECMA-376, EPUB 3), read with fflate; HTML through the
 * converter `fetch_url` uses. Each returns sections: a slide, a sheet, a chapter, or the whole text.
 */
import { XMLParser } from "fast-xml-parser";
import { unzipCapped } from "../lib/unzip-capped.js";
import { htmlToMarkdown } from "../net/html-to-markdown.js";
import { decodeText } from "./text-encoding.js";

export interface Section {
  /** Where the section starts, as a citation gives it: a slide number, or 1. */
  line: number;
  text: string;
}

/**
 * What a document's archive may unpack to, counted on the bytes actually inflated (a Word file of
 * 1.5 MB can declare small parts and unpack to 1.5 GB): a document's text never needs more.
 */
export const MAX_UNPACKED_BYTES = 128 * 1024 * 1024;
const MAX_ARCHIVE_FILES = 20_000;

/** The entries `wanted` names, as text; every other entry is counted against the cap too when `countAll`. */
async function unzipSome(data: Uint8Array, wanted: (name: string) => boolean, countAll = false): Promise<Record<string, string>> {
  const unpacked = await unzipCapped(data, (name) => (wanted(name) ? "keep" : countAll ? "count" : "skip"), { totalBytes: MAX_UNPACKED_BYTES, files: MAX_ARCHIVE_FILES });
  if (!unpacked.ok) throw new Error(`the document was not read: ${unpacked.problem.message}`);
  const decoder = new TextDecoder();
  return Object.fromEntries([...unpacked.files].map(([name, bytes]) => [name, decoder.decode(bytes)]));
}

const byNumber = (a: string, b: string) => Number(/(\d+)\.xml$/.exec(a)?.[1] ?? 0) - Number(/(\d+)\.xml$/.exec(b)?.[1] ?? 0);

export async function docxSections(data: Uint8Array): Promise<Section[]> {
  // Mammoth unpacks the parts it reads whole: the archive is first unpacked as a stream, counted and
  // thrown away, so a zip bomb stops at the cap without ever being held.
  await unzipSome(data, () => false, true);
  const mammoth = await import("mammoth");
  const { value } = await mammoth.extractRawText({ buffer: Buffer.from(data) });
  return [{ line: 1, text: value.replace(/\n{3,}/g, "\n\n").trim() }];
}

/**
 * How every Office and EPUB part is parsed: attributes kept under their names, namespace prefixes
 * dropped (they are the producer's choice: some write `x:row`), every value the string as written
 * (spaces kept), and character references decoded (openpyxl writes é as &#233;), not only the five
 * named entities.
 */
const XML_AS_WRITTEN = {
  ignoreAttributes: false,
  attributeNamePrefix: "",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  htmlEntities: true,
} as const;

/** SpreadsheetML parts as objects. */
const spreadsheetXml = new XMLParser({ ...XML_AS_WRITTEN, isArray: (name) => ["sheet", "Relationship", "si", "r", "row", "c"].includes(name) });

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
export async function xlsxSections(data: Uint8Array): Promise<Section[]> {
  const files = await unzipSome(data, (name) => /^xl\/(workbook\.xml|sharedStrings\.xml|_rels\/workbook\.xml\.rels|worksheets\/[^/]+\.xml)$/.test(name));
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

/** Parts whose element order matters (a slide's paragraphs), as fast-xml-parser's ordered nodes. */
const orderedXml = new XMLParser({ ...XML_AS_WRITTEN, preserveOrder: true });
type OrderedNode = Record<string, unknown>;
const tagOf = (node: OrderedNode) => Object.keys(node).find((key) => key !== ":@");

/** DrawingML text: each paragraph (`<a:p>`) a line, its runs' and fields' `<a:t>` joined, `<a:br>` a line break. */
function drawingParagraphs(nodes: OrderedNode[], lines: string[] = []): string[] {
  const textIn = (children: OrderedNode[]): string =>
    children
      .map((node) => {
        const tag = tagOf(node);
        if (tag === "br") return "\n";
        if (tag === undefined || tag === "#text") return "";
        const inner = node[tag] as OrderedNode[];
        return tag === "t" ? inner.map((n) => String(n["#text"] ?? "")).join("") : textIn(inner);
      })
      .join("");
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === undefined || tag === "#text") continue;
    if (tag === "p") lines.push(textIn(node[tag] as OrderedNode[]));
    else drawingParagraphs(node[tag] as OrderedNode[], lines);
  }
  return lines;
}

/** Parts read with their qualified names kept: where one element has two attributes of one local name (`id`, `r:id`). */
const qualifiedXml = new XMLParser({ ...XML_AS_WRITTEN, removeNSPrefix: false, isArray: (name) => name.endsWith("sldId") || name === "Relationship" });

const RELATIONSHIPS_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/**
 * The slides' part names in the presentation's order (its slide list, through its relationships,
 * whatever prefixes the producer chose); in part-name order when the list cannot be read.
 */
function slideOrder(files: Record<string, string>): string[] {
  const slides = Object.keys(files).filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name)).sort(byNumber);
  const doc = files["ppt/presentation.xml"] ? (qualifiedXml.parse(files["ppt/presentation.xml"]) as Record<string, Record<string, unknown>>) : {};
  const rootName = Object.keys(doc).find((key) => /(^|:)presentation$/.test(key));
  const root = rootName ? doc[rootName] : undefined;
  if (!root) return slides;
  const prefix = rootName!.includes(":") ? `${rootName!.split(":")[0]}:` : "";
  const relPrefix = Object.entries(root).find(([key, value]) => key.startsWith("xmlns:") && value === RELATIONSHIPS_NS)?.[0].slice("xmlns:".length);
  const list = root[`${prefix}sldIdLst`] as Record<string, Array<Record<string, string>>> | undefined;
  const rels = ((qualifiedXml.parse(files["ppt/_rels/presentation.xml.rels"] ?? "") as { Relationships?: { Relationship?: Array<Record<string, string>> } }).Relationships?.Relationship ?? []);
  const targets = new Map(rels.map((r) => [r.Id, r.Target.startsWith("/") ? r.Target.slice(1) : `ppt/${r.Target}`]));
  const ordered = (list?.[`${prefix}sldId`] ?? []).map((entry) => targets.get(entry[`${relPrefix}:id`])).filter((name): name is string => name !== undefined && files[name] !== undefined);
  return ordered.length > 0 ? ordered : slides;
}
/** One section per slide, in the presentation's order, numbered as it shows them; its paragraphs as lines. */
export async function pptxSections(data: Uint8Array): Promise<Section[]> {
  const files = await unzipSome(data, (name) => /^ppt\/(presentation\.xml|_rels\/presentation\.xml\.rels|slides\/slide\d+\.xml)$/.test(name));
  return slideOrder(files)
    .map((name, i) => {
      const paragraphs = drawingParagraphs(orderedXml.parse(files[name]) as OrderedNode[]).filter((p) => p.trim() !== "");
      return { line: i + 1, text: paragraphs.join("\n") };
    })
    .filter((s) => s.text !== "");
}

/** EPUB's container and package files (OCF, OPF). */
const packageXml = new XMLParser({ ...XML_AS_WRITTEN, isArray: (name) => ["rootfile", "item", "itemref"].includes(name) });

/** The chapters in reading order (the package's spine), as Markdown. */
export async function epubSections(data: Uint8Array): Promise<Section[]> {
  const files = await unzipSome(data, (name) => /\.(xml|opf|x?html?)$/i.test(name));
  const container = packageXml.parse(files["META-INF/container.xml"] ?? "") as { container?: { rootfiles?: { rootfile?: Array<Record<string, string>> } } };
  const rootfile = container.container?.rootfiles?.rootfile?.[0]?.["full-path"];
  const opf = rootfile ? files[rootfile] : undefined;
  if (!rootfile || !opf) throw new Error("not an EPUB: META-INF/container.xml names no package file");
  const base = rootfile.includes("/") ? rootfile.slice(0, rootfile.lastIndexOf("/") + 1) : "";
  const pkg = (packageXml.parse(opf) as { package?: { manifest?: { item?: Array<Record<string, string>> }; spine?: { itemref?: Array<Record<string, string>> } } }).package;
  const hrefs = new Map((pkg?.manifest?.item ?? []).map((item) => [item.id, item.href]));
  const spine = (pkg?.spine?.itemref ?? []).map((ref) => hrefs.get(ref.idref)).filter((h): h is string => Boolean(h));
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
