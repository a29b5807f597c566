/**
 * Copies a knowledge index from one store to another (the embedded file to a server, or back), document
 * by document, each in one transaction, with its stored vectors: nothing is embedded again. The BM25
 * terms are made again from the chunks' text (the same text analysis the indexer uses), which is cheap
 * and keeps the copy at this version's analysis.
 */
import type { IndexStore } from "./index-store.js";
import { TEXT_ANALYSIS_VERSION, textTerms } from "./text-terms.js";

export interface CopyReport {
  documents: number;
  chunks: number;
  /** Chunks copied with their vector. */
  vectors: number;
}

export async function copyIndex(from: IndexStore, to: IndexStore, onDocument: (done: number, total: number) => void = () => {}): Promise<CopyReport> {
  const space = await from.vectorSpace();
  await to.clear(TEXT_ANALYSIS_VERSION);
  if (space) await to.useVectorSpace(space);
  const documents = await from.documents();
  const report: CopyReport = { documents: 0, chunks: 0, vectors: 0 };
  for (const doc of documents) {
    if (doc.reason !== null) await to.failDocument(doc, doc.reason);
    else {
      const chunks = await from.chunksOf(doc.path);
      const vectors = space ? await from.vectorsOf(chunks.map((c) => c.id)) : new Map<number, Float32Array>();
      const whole = space !== null && chunks.length > 0 && chunks.every((c) => vectors.has(c.id));
      await to.writeDocument(
        doc,
        chunks.map((c) => ({ index: c.index, line: c.line, text: c.text, terms: textTerms(c.text).join(" ") })),
        whole ? { space, rows: chunks.map((c) => vectors.get(c.id)!) } : null,
      );
      report.chunks += chunks.length;
      if (whole) report.vectors += chunks.length;
    }
    report.documents++;
    onDocument(report.documents, documents.length);
  }
  if (space && report.vectors === report.chunks && !(await from.vectorsMayBeMissing())) await to.markVectorsComplete();
  return report;
}
