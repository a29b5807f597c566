import { z } from "zod";
import { MAX_PATH_CHARS } from "./limits.js";
import { errorReplies, operation } from "./operation.js";

/** One passage of `GET /api/knowledge/search`: where it is, and how each side scored it. */
export const knowledgeHitSchema = z.object({
  /** Data-root-relative, e.g. `knowledge/notes/a.md`. */
  source: z.string(),
  chunk: z.number().int(),
  /** The passage's first line in the source (1-based). */
  line: z.number().int(),
  /** The fused score the ranking uses. */
  score: z.number(),
  /** BM25's score, null when BM25 did not find the passage among its candidates. */
  bm25: z.number().nullable(),
  vector: z.number().nullable(),
  text: z.string(),
});
export type KnowledgeHit = z.infer<typeof knowledgeHitSchema>;

export const knowledgeSearchReplySchema = z
  .object({
    mode: z.enum(["hybrid", "bm25"]),
    embedder: z.string(),
    /** Why vector search was left out, if it was. */
    note: z.string().nullable(),
    /** True while documents are being indexed: the results are from what was committed before. */
    indexing: z.boolean(),
    results: z.array(knowledgeHitSchema),
  })
  .meta({ id: "KnowledgeSearchReply" });
export type KnowledgeSearchReply = z.infer<typeof knowledgeSearchReplySchema>;

/** A knowledge collection's name (KNOWLEDGE_COLLECTION): lower-case letters, digits and `_`, starting with a letter (it names database indexes too). */
export const KNOWLEDGE_COLLECTION_NAME = /^[a-z][a-z0-9_]{0,39}$/;

/** Another workbench indexing a shared collection: who, and how far it is. */
export const knowledgeIndexerSchema = z.object({
  /** The indexing workbench's host name and process id. */
  host: z.string(),
  pid: z.number().int(),
  /** True when it is this workbench. */
  self: z.boolean(),
  /** When its last heartbeat reached the database (ISO 8601). */
  heartbeat: z.string(),
  /** The knowledge folder it indexes (`host:/path`): a shared collection holds that folder's documents only. */
  folder: z.string().optional(),
  progress: z.object({ running: z.boolean(), done: z.number().int(), total: z.number().int(), current: z.string().nullable() }),
});

/**
 * Where the index lives. `sqlite`: the embedded file under storage/knowledge/. `postgres`: a server
 * (KNOWLEDGE_STORE_URL), shown without its password, in one collection of it; `vectors` says how the
 * vector side is searched there (`pgvector`: an HNSW index; `stored`: vectors kept beside the chunks
 * and scored by the workbench, BM25's candidates rescored as in the embedded store).
 */
export const knowledgeStoreStatusSchema = z.object({
  kind: z.enum(["sqlite", "postgres"]),
  location: z.string(),
  collection: z.string().nullable(),
  vectors: z.enum(["embedded", "pgvector", "stored"]),
  /** False while the server cannot be reached (searches fail naming the store; it is retried with backoff). */
  connected: z.boolean(),
  error: z.string().nullable(),
  /** The workbench that indexes the collection now (null: none, or the embedded store). */
  indexer: knowledgeIndexerSchema.nullable(),
  /** A shared collection: whose folder it holds, and what of this workbench's folder it leaves out (absent: nothing to say). */
  note: z.string().optional(),
});

export const knowledgeStatusReplySchema = z
  .object({
    documents: z.number().int(),
    chunks: z.number().int(),
    mode: z.enum(["hybrid", "bm25"]),
    embedder: z.object({ mode: z.enum(["offline", "openai"]), label: z.string(), error: z.string().nullable() }),
    last_update: z.string().nullable(),
    indexing: z.object({ running: z.boolean(), done: z.number().int(), total: z.number().int(), current: z.string().nullable() }),
    /** Documents and entries that are not indexed, with the reason. */
    skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
    /** Set when knowledge/ holds more than the indexer looks at. */
    truncated: z.string().nullable(),
    /** Set when the stored index could not be read, or was stored by an earlier version, and is rebuilt. */
    recovered: z.string().nullable(),
    /**
     * How changes to knowledge/ are noticed: folder events (a walk only after a change), polling every
     * 2 s when the system cannot watch (the reason says why), off when nothing watches. `walks` counts
     * the looks at the folder since start.
     */
    watch: z.object({ mode: z.enum(["events", "polling", "off"]), folders: z.number().int(), reason: z.string().nullable(), walks: z.number().int() }),
    store: knowledgeStoreStatusSchema,
  })
  .meta({ id: "KnowledgeStatusReply" });
export type KnowledgeStatusReply = z.infer<typeof knowledgeStatusReplySchema>;

/** `GET /api/knowledge/source?path=`: a document's text as the index reads it (read-only in the Inspector). */
export const knowledgeSourceReplySchema = z
  .object({
    path: z.string(),
    /** Plain text as it is; other formats extracted, PDF pages and slides each under a `── page N ──` line. */
    text: z.string(),
    /** PDF and PowerPoint: the line of `text` where each page or slide starts (a citation names the page). */
    pages: z.array(z.object({ page: z.number().int(), line: z.number().int() })).nullable(),
    page_word: z.enum(["page", "slide"]).nullable(),
  })
  .meta({ id: "KnowledgeSourceReply" });
export type KnowledgeSourceReply = z.infer<typeof knowledgeSourceReplySchema>;

/** `GET /api/knowledge/documents`: every document the index knows or refused. */
export const knowledgeDocumentSchema = z.object({
  path: z.string(),
  /** indexed: searchable; failed: read but not indexed (the reason says why; retried when it changes); skipped: never read (too large, a link). */
  state: z.enum(["indexed", "failed", "skipped"]),
  chunks: z.number().int(),
  bytes: z.number().int().nullable(),
  reason: z.string().optional(),
});
export type KnowledgeDocument = z.infer<typeof knowledgeDocumentSchema>;

export const knowledgeDocumentsReplySchema = z.object({ documents: z.array(knowledgeDocumentSchema) }).meta({ id: "KnowledgeDocumentsReply" });
export type KnowledgeDocumentsReply = z.infer<typeof knowledgeDocumentsReplySchema>;

/** `POST /api/knowledge/documents?filename=NAME` (201): the file as stored, and how its indexing went. */
export const knowledgeUploadReplySchema = z
  .object({
    path: z.string(),
    bytes: z.number().int(),
    /** pending: stored, and waiting for the indexer (it is busy with other documents). */
    state: z.enum(["indexed", "failed", "pending"]),
    chunks: z.number().int(),
    reason: z.string().optional(),
  })
  .meta({ id: "KnowledgeUploadReply" });
export type KnowledgeUploadReply = z.infer<typeof knowledgeUploadReplySchema>;

/** `DELETE /api/knowledge/documents?path=`: the document left the index; `trash` names it for a restore. */
export const knowledgeRemoveReplySchema = z.object({ path: z.string(), trash: z.string() }).meta({ id: "KnowledgeRemoveReply" });
export type KnowledgeRemoveReply = z.infer<typeof knowledgeRemoveReplySchema>;

export const knowledgeRestoreReplySchema = z.object({ path: z.string() }).meta({ id: "KnowledgeRestoreReply" });

export const knowledgeRebuildReplySchema = z.object({ started: z.literal(true), status: knowledgeStatusReplySchema }).meta({ id: "KnowledgeRebuildReply" });

const pathQuery = z.object({ path: z.string().max(MAX_PATH_CHARS).optional() });

export const knowledgeApi = {
  search: operation({
    method: "GET",
    path: "/api/knowledge/search",
    summary: "Hybrid search (BM25 and vectors, fused) over knowledge/: the best `k` passages (5 unless asked, at most 50)",
    querystring: z.object({ q: z.string().optional(), k: z.string().max(10).optional() }),
    responses: { 200: knowledgeSearchReplySchema, ...errorReplies(400, 413, 503) },
  }),
  status: operation({ method: "GET", path: "/api/knowledge/status", summary: "The index: documents, chunks, embedder, indexing progress, what is skipped, how changes are noticed", responses: { 200: knowledgeStatusReplySchema } }),
  documents: operation({ method: "GET", path: "/api/knowledge/documents", summary: "Every document the index knows or refused", responses: { 200: knowledgeDocumentsReplySchema } }),
  source: operation({
    method: "GET",
    path: "/api/knowledge/source",
    summary: "A document's text as the index reads it (PDF by page, Word, slides...)",
    querystring: pathQuery,
    responses: { 200: knowledgeSourceReplySchema, ...errorReplies(400, 403, 404, 422) },
  }),
  upload: operation({
    method: "POST",
    path: "/api/knowledge/documents",
    summary: "Adds a document under knowledge/ (never over another) and indexes it",
    querystring: z.object({ filename: z.string().max(MAX_PATH_CHARS).optional() }),
    rawBody: { contentTypes: ["application/octet-stream"], description: "The document's bytes." },
    responses: { 201: knowledgeUploadReplySchema, ...errorReplies(400, 403, 409, 413, 415, 422, 507) },
  }),
  remove: operation({
    method: "DELETE",
    path: "/api/knowledge/documents",
    summary: "Moves a document to the trash, out of the index",
    querystring: pathQuery,
    responses: { 200: knowledgeRemoveReplySchema, ...errorReplies(400, 403, 404, 422) },
  }),
  restore: operation({
    method: "POST",
    path: "/api/knowledge/documents/restore",
    summary: "Puts a removed document back where it was",
    body: z.object({ trash: z.string().max(64) }),
    responses: { 200: knowledgeRestoreReplySchema, ...errorReplies(400, 404, 409) },
  }),
  rebuild: operation({
    method: "POST",
    path: "/api/knowledge/rebuild",
    summary: "Starts a full rebuild of the index (a server store: this collection only); progress shows in the status",
    responses: { 202: knowledgeRebuildReplySchema, ...errorReplies(409, 503) },
  }),
};
