import { readFile } from "node:fs/promises";
import { SentenceSplitter } from "@llamaindex/core/node-parser";

export const KNOWLEDGE_EXTENSIONS = /\.(md|markdown|txt|pdf)$/i;
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

export interface Chunk {
  /** Position of the chunk in its document (0-based). */
  index: number;
  /** Line of the document where the chunk starts (1-based; for PDFs, the page). */
  line: number;
  text: string;
}

// Chunks of about 400 tokens with some overlap: small enough to cite, large enough to hold a point.
const splitter = new SentenceSplitter({ chunkSize: 400, chunkOverlap: 40 });

async function pdfText(path: string): Promise<Array<{ page: number; text: string }>> {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const data = new Uint8Array(await readFile(path));
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

/** Splits text into chunks with the line each starts on. */
export function chunkText(text: string, firstLine = 1): Chunk[] {
  const chunks: Chunk[] = [];
  let cursor = 0;
  let counted = 0;
  let line = firstLine;
  for (const piece of splitter.splitText(text)) {
    const at = text.indexOf(piece.slice(0, 40), cursor);
    const start = at >= 0 ? at : cursor;
    for (let i = counted; i < start; i++) if (text.charCodeAt(i) === 10) line++;
    counted = Math.max(counted, start);
    chunks.push({ index: chunks.length, line, text: piece });
    cursor = start + 1;
  }
  return chunks;
}

/** Reads a Markdown, text or PDF document and splits it into chunks (PDF chunks carry their page). */
export async function loadDocument(path: string): Promise<Chunk[]> {
  if (/\.pdf$/i.test(path)) {
    const chunks: Chunk[] = [];
    for (const { page, text } of await pdfText(path)) {
      for (const chunk of chunkText(text)) chunks.push({ ...chunk, index: chunks.length, line: page });
    }
    return chunks;
  }
  return chunkText(await readFile(path, "utf8"));
}
