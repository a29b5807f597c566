import type { OpenAIEmbeddings } from "@langchain/openai";
import type { Config } from "../config/config.js";
import { OFFLINE_DIMENSIONS, offlineEmbed } from "./offline-embedder.js";
import { endpointOf } from "../config/default-endpoint.js";

export interface Embedder {
  /** Identifies the vector space: vectors from another id must be recomputed. */
  id: string;
  mode: "offline" | "openai";
  /** What the user is told, e.g. "offline embedder (feature hashing, 2048 dims)". */
  label: string;
  embedDocuments(texts: string[]): Promise<Float32Array[]>;
  /** `termWeight` gives rare query terms more weight where the embedder can use it. */
  embedQuery(text: string, termWeight: (term: string) => number): Promise<Float32Array>;
}

export const offlineEmbedder: Embedder = {
  id: `offline-hash-v1-${OFFLINE_DIMENSIONS}`,
  mode: "offline",
  label: `offline embedder (feature hashing, ${OFFLINE_DIMENSIONS} dims, no model)`,
  embedDocuments: async (texts) => texts.map((text) => offlineEmbed(text)),
  embedQuery: async (text, termWeight) => offlineEmbed(text, termWeight),
};

function unit(values: number[]): Float32Array {
  const vector = Float32Array.from(values);
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < vector.length; i++) vector[i] /= norm;
  return vector;
}

const BATCH = 64;

/**
 * What the hand-written client did that OpenAIEmbeddings does not, at the fetch it uses (as the chat
 * model's normalizer does): the vectors put back in input order by their `index` (some servers
 * answer out of order), and a reply without one float vector per input turned into an error that
 * says so, instead of `undefined` vectors in the index. Failures name the endpoint.
 */
function embeddingsFetch(url: string): typeof fetch {
  return async (input, init) => {
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (err) {
      throw new Error(`the embedding endpoint ${url} is unreachable (${(err as Error).message})`, { cause: err });
    }
    if (!response.ok) return response; // the SDK turns it into an error with the status; retried where that helps
    const sent = JSON.parse(typeof init?.body === "string" ? init.body : "{}") as { input?: unknown };
    const count = Array.isArray(sent.input) ? sent.input.length : 1;
    const body = (await response.json().catch(() => null)) as { data?: Array<{ index?: number; embedding?: unknown }> } | null;
    const data = body?.data;
    if (!Array.isArray(data) || data.length !== count || !data.every((d) => Array.isArray(d.embedding) && d.embedding.every((v) => typeof v === "number"))) {
      throw new Error("the embedding endpoint sent a response without one float vector per input");
    }
    const ordered = [...data].sort((x, y) => (x.index ?? 0) - (y.index ?? 0));
    return new Response(JSON.stringify({ ...body, data: ordered }), { status: 200, headers: { "content-type": "application/json" } });
  };
}

/** Error messages from the SDK, in the words the knowledge view shows. */
function describeFailure(err: unknown, url: string): Error {
  const status = (err as { status?: number }).status;
  if (typeof status === "number") {
    const detail = ((err as Error).message ?? "").replace(/^\d{3}\s*/, "").replace(/\s+/g, " ").slice(0, 200);
    return new Error(`the embedding endpoint answered ${status}${detail ? `: ${detail}` : ""}`);
  }
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error && /embedding endpoint/.test(cause.message)) return cause;
  if (err instanceof Error && /embedding endpoint/.test(err.message)) return err;
  return new Error(`the embedding endpoint ${url} failed (${(err as Error)?.message ?? String(err)})`);
}

/**
 * An OpenAI-compatible `/embeddings` endpoint through LangChain's OpenAIEmbeddings (batching and
 * retries with backoff), asking for plain floats (some servers mishandle base64). Vectors are unit
 * length, as the index's cosine search expects.
 */
export function openAiEmbedder(settings: { model: string; baseUrl: string; apiKey: string | null; timeoutMs: number; maxRetries?: number }): Embedder {
  const url = `${settings.baseUrl.replace(/\/$/, "")}/embeddings`;
  // The client (and LangChain's OpenAI package) loads at the first call, not with the server.
  let client: Promise<OpenAIEmbeddings> | null = null;
  const open = () =>
    (client ??= import("@langchain/openai").then(
      ({ OpenAIEmbeddings }) =>
        new OpenAIEmbeddings({
          model: settings.model,
          apiKey: settings.apiKey ?? "not-needed",
          batchSize: BATCH,
          encodingFormat: "float",
          stripNewLines: false,
          timeout: settings.timeoutMs,
          maxRetries: settings.maxRetries ?? 2,
          configuration: { baseURL: settings.baseUrl, fetch: embeddingsFetch(url) },
        }),
    ));
  const run = async <T>(call: (embeddings: OpenAIEmbeddings) => Promise<T>): Promise<T> => {
    const embeddings = await open();
    try {
      return await call(embeddings);
    } catch (err) {
      throw describeFailure(err, url);
    }
  };
  return {
    id: `openai:${settings.baseUrl}:${settings.model}`,
    mode: "openai",
    label: `embeddings from ${settings.model} at ${settings.baseUrl}`,
    embedDocuments: async (texts) => (await run((embeddings) => embeddings.embedDocuments(texts))).map(unit),
    embedQuery: async (text) => unit(await run((embeddings) => embeddings.embedQuery(text))),
  };
}

/** How long one embeddings request may take. */
export const EMBEDDING_TIMEOUT_MS = 30_000;

/** Where embeddings go and with which key: their own base URL and key, else the chat model's. */
export function embeddingEndpoint(
  chat: { baseUrl: string | null; apiKey: string | null },
  embedding: { baseUrl: string | null; apiKey: string | null },
): { baseUrl: string; apiKey: string | null } {
  return { baseUrl: endpointOf(embedding.baseUrl ?? chat.baseUrl), apiKey: embedding.apiKey ?? chat.apiKey };
}

/** The endpoint's embeddings when EMBEDDING_MODEL is set; the offline embedder otherwise. */
export function embedderFor(config: Config): Embedder {
  const { model } = config.embedding;
  if (!model) return offlineEmbedder;
  return openAiEmbedder({ model, ...embeddingEndpoint(config.model, config.embedding), timeoutMs: EMBEDDING_TIMEOUT_MS, maxRetries: config.model.maxRetries });
}
