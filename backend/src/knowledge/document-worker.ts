/**
 * The knowledge indexer's worker thread: reads one document, chunks it, and computes what only
 * depends on the chunk (its BM25 terms and, for the offline embedder, its vector), so the server's
 * own thread only files the results. A document that takes too long is stopped from outside by
 * terminating this worker.
 */
import { parentPort } from "node:worker_threads";
import { extractText, loadDocument } from "./load-document.js";
import { offlineEmbed, OFFLINE_DIMENSIONS } from "./offline-embedder.js";
import { textTerms } from "./text-terms.js";
import type { DocumentJob, DocumentResult, ExtractResult } from "./document-reader.js";

const port = parentPort;
if (!port) throw new Error("document-worker runs as a worker thread");

port.on("message", async (job: DocumentJob) => {
  if (job.extract) {
    let extracted: ExtractResult;
    try {
      extracted = { id: job.id, ok: true, ...(await extractText(job.dataRoot, job.path, job.maxBytes)) };
    } catch (err) {
      extracted = { id: job.id, ok: false, reason: (err as Error).message };
    }
    port.postMessage(extracted);
    return;
  }
  let reply: DocumentResult;
  const transfer: ArrayBuffer[] = [];
  try {
    const chunks = await loadDocument(job.dataRoot, job.path, job.maxBytes);
    let vectors: Float32Array | null = null;
    if (job.offlineVectors) {
      vectors = new Float32Array(chunks.length * OFFLINE_DIMENSIONS);
      chunks.forEach((chunk, i) => vectors!.set(offlineEmbed(chunk.text), i * OFFLINE_DIMENSIONS));
      transfer.push(vectors.buffer as ArrayBuffer);
    }
    reply = { id: job.id, ok: true, chunks: chunks.map((c) => ({ ...c, terms: textTerms(c.text).join(" ") })), vectors, dims: OFFLINE_DIMENSIONS };
  } catch (err) {
    reply = { id: job.id, ok: false, reason: (err as Error).message };
  }
  port.postMessage(reply, transfer);
});
port.postMessage({ ready: true });
