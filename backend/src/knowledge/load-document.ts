import { readConfinedFile } from "../paths/read-confined-file.js";
import { type Chunk, chunkText } from "./chunk-text.js";

export const KNOWLEDGE_EXTENSIONS = /\.(md|markdown|txt|pdf)$/i;
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

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

/**
 * Reads a Markdown, text or PDF document of the data root (by the data root's rules: no links, a
 * regular file, capped) and splits it into chunks; PDF chunks carry their page as their line.
 */
export async function loadDocument(dataRoot: string, relPath: string, maxBytes = MAX_DOCUMENT_BYTES): Promise<Chunk[]> {
  const { data } = await readConfinedFile(dataRoot, relPath, { maxBytes, timeoutMs: 30_000 });
  if (/\.pdf$/i.test(relPath)) {
    const chunks: Chunk[] = [];
    for (const { page, text } of await pdfText(new Uint8Array(data))) {
      for (const chunk of chunkText(text)) chunks.push({ ...chunk, index: chunks.length, line: page });
    }
    return chunks;
  }
  return chunkText(data.toString("utf8"));
}
