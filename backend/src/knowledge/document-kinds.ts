/**
 * What the knowledge folder holds, as the server's thread needs to know it: which files are
 * documents, how large one may be, how a paged one is cited. The readers themselves
 * (load-document.ts: PDF, Word, HTML...) load only in the index worker.
 */
export const KNOWLEDGE_EXTENSIONS = /\.(md|markdown|txt|csv|tsv|pdf|docx|pptx|xlsx|epub|html?)$/i;
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

/** A paged format's chunks are cited by page (PDF) or slide (PowerPoint) instead of line. */
export function pageWord(relPath: string): "page" | "slide" | null {
  return /\.pdf$/i.test(relPath) ? "page" : /\.pptx$/i.test(relPath) ? "slide" : null;
}
