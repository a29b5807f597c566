/**
 * The knowledge indexer's worker thread: it reads a document, chunks it, computes what depends on
 * the chunk alone (its BM25 terms, and the offline embedder's vectors), and writes the document into
 * the store in one transaction. The server's thread only tells it what to do and hears back how many
 * chunks came of it. A document that takes too long is stopped from outside by terminating this worker.
 */
import type { IndexStore } from "./index-store.js";
import { openIndexStore } from "./open-index-store.js";
import type { StoreLocation } from "./store-location.js";
import { extractText, loadDocument } from "./load-document.js";
import { offlineEmbed } from "./offline-embedder.js";
import { textTerms } from "./text-terms.js";
import type { WorkerJob, WorkerReply } from "./index-worker.js";
import { serveJobs } from "../workers/serve-jobs.js";

const stores = new Map<string, Promise<IndexStore>>();
function storeAt(location: StoreLocation): Promise<IndexStore> {
  const key = JSON.stringify(location);
  let store = stores.get(key);
  if (!store) {
    stores.set(key, (store = openIndexStore(location)));
    // A server that could not be reached is tried again by the next job.
    store.catch(() => stores.delete(key));
  }
  return store;
}

async function handle(job: WorkerJob): Promise<WorkerReply> {
  switch (job.kind) {
    case "extract":
      return { ok: true, ...(await extractText(job.dataRoot, job.path, job.maxBytes)) };
    case "index": {
      const doc = { path: job.path, size: job.size, mtimeMs: job.mtimeMs };
      const store = await storeAt(job.store);
      let chunks;
      try {
        chunks = await loadDocument(job.dataRoot, job.path, job.maxBytes);
      } catch (err) {
        await store.failDocument(doc, (err as Error).message);
        return { ok: false, reason: (err as Error).message, recorded: true };
      }
      const rows = chunks.map((c) => ({ index: c.index, line: c.line, text: c.text, terms: textTerms(c.text).join(" ") }));
      const vectors = job.offline ? { space: job.offline, rows: chunks.map((c) => offlineEmbed(c.text)) } : null;
      await store.writeDocument(doc, rows, vectors);
      return { ok: true, chunks: rows.length };
    }
    case "fail":
      await (await storeAt(job.store)).failDocument({ path: job.path, size: job.size, mtimeMs: job.mtimeMs }, job.reason);
      return { ok: true };
    case "remove":
      for (const path of job.paths) await (await storeAt(job.store)).removeDocument(path);
      return { ok: true };
    case "prepare": {
      const store = await storeAt(job.store);
      const analysis = await store.meta("text_analysis");
      const cleared = analysis !== String(job.textAnalysis);
      if (cleared) await store.clear(job.textAnalysis);
      await store.useVectorSpace(job.space);
      return { ok: true, cleared };
    }
    case "clear":
      await (await storeAt(job.store)).clear(job.textAnalysis);
      return { ok: true };
    case "vectors": {
      const store = await storeAt(job.store);
      if (job.rows.length === 0) await store.markVectorsComplete();
      return { ok: true, stored: await store.storeVectors(job.space, job.rows) };
    }
    case "embed-offline": {
      // The offline embedder's vectors for chunks that have none (after a switch back to it), a batch at a time.
      const store = await storeAt(job.store);
      const missing = await store.missingVectors(job.batch);
      if (missing.length === 0) await store.markVectorsComplete();
      await store.storeVectors(job.space, missing.map((c) => ({ id: c.id, vector: offlineEmbed(c.text) })));
      return { ok: true, stored: missing.length };
    }
    case "close":
      for (const store of stores.values()) await store.then((opened) => opened.close(), () => {});
      stores.clear();
      return { ok: true };
  }
}

serveJobs<WorkerJob, WorkerReply>(async (job) => {
  try {
    return await handle(job);
  } catch (err) {
    // A server store's failure is not the document's: the knowledge base tries again later.
    const storeDown = "store" in job && job.store.kind === "postgres";
    return { ok: false, reason: (err as Error).message, ...(storeDown ? { storeDown } : {}) };
  }
});
