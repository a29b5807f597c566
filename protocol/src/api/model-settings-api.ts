import { z } from "zod";
import { errorReplies, operation } from "./operation.js";

export const modelSettingNameSchema = z.enum(["OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_API_KEY", "EMBEDDING_MODEL", "EMBEDDING_BASE_URL", "EMBEDDING_API_KEY"]);
export type ModelSettingName = z.infer<typeof modelSettingNameSchema>;

/** `GET /api/model`: the chat model as configured. The key itself is never sent back. */
export const modelSettingsReplySchema = z
  .object({
    base_url: z.string().nullable(),
    model: z.string(),
    api_key_set: z.boolean(),
    /** Where the settings are saved (KEY.md; git-ignored). */
    key_file: z.string(),
    /** The knowledge base's embeddings: a model at an endpoint (the chat one unless `base_url`), or none (offline embedder). */
    embedding: z.object({ model: z.string().nullable(), base_url: z.string().nullable(), api_key_set: z.boolean() }),
    /** Settings the environment sets: they win over KEY.md, so they cannot be changed from here. */
    from_environment: z.array(modelSettingNameSchema),
  })
  .meta({ id: "ModelSettingsReply" });
export type ModelSettingsReply = z.infer<typeof modelSettingsReplySchema>;

/** No control characters in any setting: they end up in KEY.md's lines and in HTTP requests. */
export const printable = (max: number) => z.string().max(max).regex(/^\P{Cc}*$/u, "no control characters");
/** A key or other credential, saved as one line of KEY.md: no control characters, line separators (U+2028, U+2029) or invisible formatting. */
export const credential = (max: number) => z.string().max(max).regex(/^[^\p{Cc}\p{Zl}\p{Zp}\p{Cf}]*$/u, "no control characters, line separators or invisible formatting characters");
/** A model name: no spaces or control characters. */
export const modelName = (min: number) => z.string().min(min).max(200).regex(/^[^\s\p{Cc}]*$/u, "no spaces or control characters");

/** `PUT /api/model`: saved to KEY.md and used from the next request on, without a restart. */
/** What the profile's model can do: found by Test connection, editable. Absent: not known. */
export const profileCapabilitiesSchema = z.strictObject({
  tools: z.boolean().optional(),
  vision: z.boolean().optional(),
  reasoning: z.boolean().optional(),
});
export type ProfileCapabilities = z.infer<typeof profileCapabilitiesSchema>;

export const modelSettingsUpdateSchema = z
  .object({
    /** Null or "" for OpenAI's own endpoint. */
    base_url: printable(500).nullable().optional(),
    model: modelName(1),
    /** Absent: keep the saved key. "": no key (local servers). */
    api_key: credential(2000).optional(),
    /** With no `api_key` and a base URL on another host than the saved key's: send the saved key there too (otherwise refused, 409). */
    key_to_new_host: z.boolean().optional(),
    /** Absent: leave the embeddings as they are. A null or "" model: the offline embedder. */
    embedding: z.object({ model: modelName(0).nullable().optional(), base_url: printable(500).nullable().optional(), api_key: credential(2000).optional() }).optional(),
    /** What Test connection found the model takes, kept as the default profile's capabilities in MODELS.json (absent: left as they are). */
    capabilities: profileCapabilitiesSchema.optional(),
  })
  .meta({ id: "ModelSettingsUpdate" });
export type ModelSettingsUpdate = z.infer<typeof modelSettingsUpdateSchema>;

/**
 * `POST /api/model/test`: tries settings before they are saved (an absent `api_key` uses the saved one).
 * The model may be left empty: the test then lists the server's models to pick from.
 */
export const modelTestRequestSchema = modelSettingsUpdateSchema.extend({ model: modelName(0) }).meta({ id: "ModelTestRequest" });
export type ModelTestRequest = z.infer<typeof modelTestRequestSchema>;

export const modelCheckSchema = z.object({
  name: z.enum(["models", "chat", "streaming", "tools", "reasoning", "usage", "vision", "embeddings"]),
  ok: z.boolean(),
  detail: z.string(),
  /** It worked, but look: the detail says what (the model named is not among those the server lists). */
  warning: z.literal(true).optional(),
});
export type ModelCheck = z.infer<typeof modelCheckSchema>;

export const modelTestReplySchema = z
  .object({
    /** Model ids the server lists (`GET /models`), or null when it lists none. */
    models: z.array(z.string()).nullable(),
    checks: z.array(modelCheckSchema),
  })
  .meta({ id: "ModelTestReply" });
export type ModelTestReply = z.infer<typeof modelTestReplySchema>;

export const modelApi = {
  read: operation({ method: "GET", path: "/api/model", summary: "The chat model and embeddings as configured (whether a key is set, never the key)", responses: { 200: modelSettingsReplySchema } }),
  save: operation({
    method: "PUT",
    path: "/api/model",
    summary: "Saves the model settings to KEY.md; used from the next request on",
    body: modelSettingsUpdateSchema,
    responses: { 200: modelSettingsReplySchema, ...errorReplies(400, 409) },
  }),
  test: operation({
    method: "POST",
    path: "/api/model/test",
    summary: "Tries settings before they are saved: models, chat, streaming, tools, reasoning, usage, images, embeddings (no model: the server's models only)",
    body: modelTestRequestSchema,
    responses: { 200: modelTestReplySchema, ...errorReplies(400) },
  }),
};
