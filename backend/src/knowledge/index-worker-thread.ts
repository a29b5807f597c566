/**
 * The knowledge indexer's worker thread: it reads a document, chunks it, computes what depends on
 * the chunk alone (its BM25 terms, and the offline embedder's vectors), and writes the document into
 * the store in one transaction. The server's thread only tells it what to do and hears back how many
 * chunks came of it. A document that takes too long is stopped from outside by terminating this worker.
 */
import { KnowledgeStore } from "./knowledge-store.js";
import { extractText, loadDocument } from "./load-document.js";
import { offlineEmbed } from "./offline-embedder.js";
import { textTerms } from "./text-terms.js";
import type { WorkerJob, WorkerReply } from "./index-worker.js";
import { serveJobs } from "../workers/serve-jobs.js";

const stores = new Map<string, KnowledgeStore>();
function storeAt(file: string): KnowledgeStore {
  let store = stores.get(file);
  if (!store) stores.set(file, (store = KnowledgeStore.open(file)));
  return store;
}

async function handle(job: WorkerJob): Promise<WorkerReply> {
  switch (job.kind) {
    case "extract":
      return { ok: true, ...(await extractText(job.dataRoot, job.path, job.maxBytes)) };
    case "index": {
      const doc = { path: job.path, size: job.size, mtimeMs: job.mtimeMs };
      const store = storeAt(job.dbFile);
      let chunks;
      try {
        chunks = await loadDocument(job.dataRoot, job.path, job.maxBytes);
      } catch (err) {
        store.failDocument(doc, (err as Error).message);
        return { ok: false, reason: (err as Error).message, recorded: true };
      }
      const rows = chunks.map((c) => ({ index: c.index, line: c.line, text: c.text, terms: textTerms(c.text).join(" ") }));
      const vectors = job.offline ? { space: job.offline, rows: chunks.map((c) => offlineEmbed(c.text)) } : null;
      store.writeDocument(doc, rows, vectors);
      return { ok: true, chunks: rows.length };
    }
    case "fail":
      storeAt(job.dbFile).failDocument({ path: job.path, size: job.size, mtimeMs: job.mtimeMs }, job.reason);
      return { ok: true };
    case "remove":
      for (const path of job.paths) storeAt(job.dbFile).removeDocument(path);
      return { ok: true };
    case "prepare": {
      const store = storeAt(job.dbFile);
      const analysis = store.meta("text_analysis");
      const cleared = analysis !== String(job.textAnalysis);
      if (cleared) store.clear(job.textAnalysis);
      store.useVectorSpace(job.space);
      return { ok: true, cleared };
    }
    case "clear":
      storeAt(job.dbFile).clear(job.textAnalysis);
      return { ok: true };
    case "vectors": {
      const store = storeAt(job.dbFile);
      if (job.rows.length === 0) store.markVectorsComplete();
      return { ok: true, stored: store.storeVectors(job.space, job.rows) };
    }
    case "embed-offline": {
      // The offline embedder's vectors for chunks that have none (after a switch back to it), a batch at a time.
      const store = storeAt(job.dbFile);
      const missing = store.missingVectors(job.batch);
      if (missing.length === 0) store.markVectorsComplete();
      store.storeVectors(job.space, missing.map((c) => ({ id: c.id, vector: offlineEmbed(c.text) })));
      return { ok: true, stored: missing.length };
    }
    case "close":
      for (const store of stores.values()) store.close();
      stores.clear();
      return { ok: true };
  }
}

serveJobs<WorkerJob, WorkerReply>(async (job) => {
  try {
    return await handle(job);
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
});
