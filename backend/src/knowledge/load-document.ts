import { readConfinedFile } from "../paths/read-confined-file.js";
import { type Chunk, chunkText } from "./chunk-text.js";
import { decodeText } from "./text-encoding.js";
import { MAX_DOCUMENT_BYTES, pageWord } from "./document-kinds.js";
import { docxSections, epubSections, htmlSections, pptxSections, type Section, xlsxSections } from "./document-formats.js";

async function pdfText(data: Uint8Array): Promise<Array<{ page: number; text: string }>> {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const pdf = await getDocument({ data, isEvalSupported: false, useSystemFonts: false, verbosity: 0 }).promise;
  const pages: Array<{ page: number; text: string }> = [];
  try {
    for (let n = 1; n <= pdf.numPages; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      const text = content.items
        .map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : " ") : ""))
        .join("")
        .replace(/[ \t]+\n/g, "\n")
        .trim();
      if (text) pages.push({ page: n, text });
    }
  } finally {
    await pdf.destroy();
  }
  return pages;
}

/** The sections of a document that is not plain text, by its extension; null for plain text. */
async function sectionsOf(relPath: string, data: Uint8Array): Promise<Section[] | null> {
  const ext = /\.([^.]+)$/.exec(relPath)?.[1].toLowerCase();
  switch (ext) {
    case "pdf":
      return (await pdfText(data)).map(({ page, text }) => ({ line: page, text }));
    case "docx":
      return docxSections(data);
    case "pptx":
      return pptxSections(data);
    case "xlsx":
      return xlsxSections(data);
    case "epub":
      return epubSections(data);
    case "html":
    case "htm":
      return htmlSections(data);
    default:
      return null;
  }
}

/** A document's text as the indexer reads it, for the Inspector; `pages` says where each page or slide starts. */
export interface ExtractedText {
  text: string;
  pages: Array<{ page: number; line: number }> | null;
}

/**
 * The text a citation points into: plain text as it is; other formats as their extracted
 * sections, numbered as `loadDocument` numbers their chunks (a blank line between sections), and
 * for PDF and PowerPoint each page or slide under a `── page N ──` line.
 */
export async function extractText(dataRoot: string, relPath: string, maxBytes = MAX_DOCUMENT_BYTES): Promise<ExtractedText> {
  const { data } = await readConfinedFile(dataRoot, relPath, { maxBytes, timeoutMs: 30_000 });
  const sections = await sectionsOf(relPath, new Uint8Array(data));
  if (sections === null) return { text: decodeText(data), pages: null };
  const word = pageWord(relPath);
  if (!word) return { text: sections.map((s) => s.text).join("\n\n"), pages: null };
  const lines: string[] = [];
  const pages: Array<{ page: number; line: number }> = [];
  for (const { line: page, text } of sections) {
    if (lines.length > 0) lines.push("");
    lines.push(`── ${word} ${page} ──`);
    pages.push({ page, line: lines.length + 1 });
    lines.push(...text.split("\n"));
  }
  return { text: lines.join("\n"), pages };
}

/**
 * Reads a document of the data root (by the data root's rules: no links, a regular file, capped)
 * and splits it into chunks. Text (Markdown, text, CSV) keeps its line numbers; a PDF page or a
 * slide is its chunks' line; other formats number the lines of their extracted text.
 */
export async function loadDocument(dataRoot: string, relPath: string, maxBytes = MAX_DOCUMENT_BYTES): Promise<Chunk[]> {
  const { data } = await readConfinedFile(dataRoot, relPath, { maxBytes, timeoutMs: 30_000 });
  const sections = await sectionsOf(relPath, new Uint8Array(data));
  if (sections === null) return chunkText(decodeText(data));
  const paged = pageWord(relPath) !== null;
  const chunks: Chunk[] = [];
  let offset = 0;
  for (const { line, text } of sections) {
    for (const chunk of chunkText(text)) chunks.push({ ...chunk, index: chunks.length, line: paged ? line : chunk.line + offset });
    offset += text.split("\n").length + 1;
  }
  return chunks;
}
