import { api, DEFAULT_PROFILE, type ModelSettingsReply, type ModelSettingsUpdate } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import { type EmbeddingProbe, probeModel } from "../../agent/probe-model.js";
import type { Config, ModelConfig } from "../../config/config.js";
import { EMBEDDING_TIMEOUT_MS, embedderFor, embeddingEndpoint, openAiEmbedder } from "../../knowledge/embedders.js";
import type { KnowledgeBase } from "../../knowledge/knowledge-base.js";
import type { ModelProfiles } from "../../models/model-profiles.js";
import { baseUrlOf } from "../../models/base-url.js";
import { checkKeyHost, keyForTest } from "../../models/key-host.js";
import { keySettingsToSave, writeKeySettings } from "../../models/key-settings.js";
import type { UiEventBus } from "../../ui-events/ui-event-bus.js";
import { routeOf, typed } from "../api-route.js";

function reply(config: Config): ModelSettingsReply {
  return {
    base_url: config.model.baseUrl,
    model: config.model.model,
    api_key_set: config.model.apiKey !== null,
    key_file: config.keyFilePath,
    embedding: { model: config.embedding.model, base_url: config.embedding.baseUrl, api_key_set: config.embedding.apiKey !== null },
    from_environment: config.modelFromEnvironment,
  };
}

/** The embedding settings a request asks for (absent: as they are); an absent key keeps the saved one. */
function embeddingOf(config: Config, body: ModelSettingsUpdate): Config["embedding"] {
  if (!body.embedding) return config.embedding;
  const model = body.embedding.model?.trim() || null;
  const apiKey = body.embedding.api_key === undefined ? config.embedding.apiKey : body.embedding.api_key.trim() || null;
  return { model, baseUrl: baseUrlOf(body.embedding.base_url, "embedding.base_url"), apiKey };
}

/**
 * Which key the embeddings would send to which host, and the host that key was saved for (a saved
 * key stays with it, as a profile's does: models/key-host.ts). Their own key (typed now: it goes
 * where the request says; saved: with the embeddings' saved endpoint), else the chat key (typed now,
 * or saved with the chat's base URL).
 */
function embeddingKeyOf(config: Config, body: ModelSettingsUpdate, chat: ModelConfig, embedding: Config["embedding"]) {
  const { baseUrl: host, apiKey: key } = embeddingEndpoint(chat, embedding);
  const typed = embedding.apiKey !== null ? body.embedding?.api_key !== undefined : body.api_key !== undefined;
  const savedHost = typed ? host : embedding.apiKey !== null ? embeddingEndpoint(config.model, config.embedding).baseUrl : config.model.baseUrl;
  return { key, host, savedHost };
}

/** The embeddings a Test connection tries, without a saved key bound for another host unless confirmed. */
function embeddingProbe(config: Config, body: ModelSettingsUpdate, chat: ModelConfig): EmbeddingProbe | null {
  const embedding = embeddingOf(config, body);
  if (!embedding.model) return null;
  const { key, host, savedHost } = embeddingKeyOf(config, body, chat, embedding);
  const apiKey = keyForTest(savedHost, host, key, body.key_to_new_host);
  return { model: embedding.model, embedder: openAiEmbedder({ model: embedding.model, baseUrl: host, apiKey, timeoutMs: EMBEDDING_TIMEOUT_MS, maxRetries: 0 }) };
}

/**
 * The settings as a model configuration: a base URL must be http(s); an absent key keeps the saved one,
 * for the host it was saved for (a test on another host goes without it unless the user confirmed).
 */
function settingsOf(config: Config, body: ModelSettingsUpdate): ModelConfig {
  const baseUrl = baseUrlOf(body.base_url, "base_url");
  const apiKey = body.api_key === undefined ? keyForTest(config.model.baseUrl, baseUrl, config.model.apiKey, body.key_to_new_host) : body.api_key.trim() || null;
  return { ...config.model, baseUrl, model: body.model.trim(), apiKey };
}

/**
 * The chat model, set up from the UI: read (never the key), tried ("Test connection") and saved to
 * KEY.md, used from the next request on. Settings the environment sets win over KEY.md, so saving a
 * different value for one of them is refused rather than silently undone at the next start.
 */
export async function modelSettingsRoutes(
  app: FastifyInstance,
  { config, ui, knowledge, models }: { config: Config; ui: UiEventBus; knowledge: Pick<KnowledgeBase, "useEmbedder">; models: Pick<ModelProfiles, "setCapabilities"> },
) {
  typed(app).route({ ...routeOf(api.model.read), handler: async () => reply(config) });

  typed(app).route({ ...routeOf(api.model.test), handler: async (request, response) => {
    const controller = new AbortController();
    // The response's close, not the request's: that one fires as soon as the body has been read.
    response.raw.on("close", () => {
      if (!response.raw.writableEnded) controller.abort("client gone");
    });
    // Images too: whether the default profile may be sent attachments that are images.
    const chat = settingsOf(config, request.body);
    return probeModel(chat, embeddingProbe(config, request.body, chat), controller.signal, { vision: true });
  } });

  typed(app).route({ ...routeOf(api.model.save), handler: async (request) => {
    const next = settingsOf(config, request.body);
    const embedding = embeddingOf(config, request.body);
    const values: Record<string, string> = { OPENAI_BASE_URL: next.baseUrl ?? "", OPENAI_MODEL: next.model };
    if (request.body.api_key !== undefined) values.OPENAI_API_KEY = next.apiKey ?? "";
    if (request.body.embedding) {
      values.EMBEDDING_MODEL = embedding.model ?? "";
      values.EMBEDDING_BASE_URL = embedding.baseUrl ?? "";
      if (request.body.embedding.api_key !== undefined) values.EMBEDDING_API_KEY = embedding.apiKey ?? "";
    }
    // The environment's settings first (409), then a saved key for another host (which needs the user's yes).
    const changed = keySettingsToSave(config, values);
    if (request.body.api_key === undefined) checkKeyHost(`the profile "${DEFAULT_PROFILE}"`, config.model.baseUrl, next.baseUrl, config.model.apiKey, request.body.key_to_new_host);
    if (embedding.model) {
      const { key, host, savedHost } = embeddingKeyOf(config, request.body, next, embedding);
      // The embeddings' own key, or the chat key they fall back on.
      checkKeyHost(embedding.apiKey !== null ? "the embeddings" : "the chat model (whose key the embeddings use)", savedHost, host, key, request.body.key_to_new_host);
    }
    await writeKeySettings(config, changed);
    // The embedder may follow the chat endpoint (no base URL of its own): made again either way; a new one re-embeds.
    await knowledge.useEmbedder(embedderFor(config));
    if (request.body.capabilities) await models.setCapabilities(DEFAULT_PROFILE, request.body.capabilities);
    ui.toast({ kind: "model_set", model: next.model, base_url: next.baseUrl ?? null });
    // Logged without the key (only whether it changed) and without anything a URL could carry beside its origin.
    request.log.info({ model: next.model, endpoint: next.baseUrl ? new URL(next.baseUrl).origin : "OpenAI", key_changed: request.body.api_key !== undefined }, "model saved");
    ui.publish({ type: "refresh", target: "health" });
    return reply(config);
  } });
}
