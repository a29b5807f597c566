import type { Config } from "../config/config.js";
import { OFFLINE_DIMENSIONS, offlineEmbed } from "./offline-embedder.js";

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

/** An OpenAI-compatible `/embeddings` endpoint. Asks for plain floats (some servers mishandle base64). */
export function openAiEmbedder(settings: { model: string; baseUrl: string; apiKey: string | null; timeoutMs: number }): Embedder {
  const url = `${settings.baseUrl.replace(/\/$/, "")}/embeddings`;
  async function embed(input: string[]): Promise<Float32Array[]> {
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${settings.apiKey ?? "not-needed"}` },
        body: JSON.stringify({ model: settings.model, input, encoding_format: "float" }),
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
    } catch (err) {
      throw new Error(`the embedding endpoint ${url} is unreachable (${(err as Error).message})`);
    }
    if (!response.ok) {
      const detail = (await response.text().catch(() => "")).replace(/\s+/g, " ").slice(0, 200);
      throw new Error(`the embedding endpoint answered ${response.status}${detail ? `: ${detail}` : ""}`);
    }
    const body = (await response.json().catch(() => null)) as { data?: Array<{ index?: number; embedding?: unknown }> } | null;
    const data = body?.data;
    if (!Array.isArray(data) || data.length !== input.length || !data.every((d) => Array.isArray(d.embedding))) {
      throw new Error("the embedding endpoint sent a response without one float vector per input");
    }
    return [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((d) => unit(d.embedding as number[]));
  }
  return {
    id: `openai:${settings.baseUrl}:${settings.model}`,
    mode: "openai",
    label: `embeddings from ${settings.model} at ${settings.baseUrl}`,
    async embedDocuments(texts) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += BATCH) out.push(...(await embed(texts.slice(i, i + BATCH))));
      return out;
    },
    embedQuery: async (text) => (await embed([text]))[0],
  };
}

/** The endpoint's embeddings when EMBEDDING_MODEL is set; the offline embedder otherwise. */
export function embedderFor(config: Config): Embedder {
  const { model, baseUrl, apiKey } = config.embedding;
  if (!model) return offlineEmbedder;
  return openAiEmbedder({
    model,
    baseUrl: baseUrl ?? config.model.baseUrl ?? "https://api.openai.com/v1",
    apiKey: apiKey ?? config.model.apiKey,
    timeoutMs: 30_000,
  });
}
