/**
 * Splits a document into overlapping chunks in time linear in its length.
 *
 * (LlamaIndex's SentenceSplitter, used before, grows with the square of the document size: a
 * 400 KB document took 25 s on the calling thread; see PLATFORM.md.) Each chunk is about
 * `size` characters, ended at the best break found in its last half (a blank line, then a line
 * end, then a sentence end, then a space), and the next one starts `overlap` characters earlier,
 * at a word boundary. Each position is looked at a bounded number of times.
 */
export interface Chunk {
  /** Position of the chunk in its document (0-based). */
  index: number;
  /** Line of the document where the chunk starts (1-based; for PDFs, the page). */
  line: number;
  text: string;
}

export interface ChunkOptions {
  /** Target characters per chunk (about 400 tokens). */
  size: number;
  /** Characters shared with the previous chunk, so a point cut in two is found whole once. */
  overlap: number;
}

export const DEFAULT_CHUNKING: ChunkOptions = { size: 1600, overlap: 160 };

const BREAKS: RegExp[] = [/\n[ \t]*\n/g, /\n/g, /[.!?。！？][)"'”’\]]*\s/g, /\s/g];

/** The best place to end a chunk in text[from, to): the end of the last break of the strongest kind. */
function breakPoint(text: string, from: number, to: number): number {
  const window = text.slice(from, to);
  for (const pattern of BREAKS) {
    let last = -1;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(window); match; match = pattern.exec(window)) last = match.index + match[0].length;
    if (last > 0) return from + last;
  }
  return to;
}

export function chunkText(text: string, firstLine = 1, options: ChunkOptions = DEFAULT_CHUNKING): Chunk[] {
  const chunks: Chunk[] = [];
  const { size, overlap } = options;
  let start = 0;
  let line = firstLine;
  let counted = 0; // text[0, counted) has been counted into `line`
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) end = breakPoint(text, start + Math.floor(size / 2), end);
    const piece = text.slice(start, end).trim();
    if (piece.length > 0) {
      // Count newlines up to the piece's first non-space character: that is the line it starts on.
      const lead = text.slice(start, end).search(/\S/);
      const first = start + Math.max(0, lead);
      for (; counted < first; counted++) if (text.charCodeAt(counted) === 10) line++;
      chunks.push({ index: chunks.length, line, text: piece });
    }
    if (end >= text.length) break;
    // Step back by the overlap, then forward to the next word start; always make progress.
    let next = Math.max(end - overlap, start + 1);
    while (next < end && !/\s/.test(text[next - 1] ?? " ")) next++;
    start = next;
  }
  return chunks;
}
