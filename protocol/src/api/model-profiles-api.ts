/**
 * Model profiles: named model endpoints. Their non-secret part is `MODELS.json` at the data root
 * (the user reads and edits it in the Inspector); each profile's key is a setting in KEY.md (or the
 * environment) named by `profileKeySetting`, never in that file and never sent back. The profile
 * `default` is the `OPENAI_*` settings: its endpoint, model and key stay where they always were.
 */
import { z } from "zod";
import { modelName as modelNameOf, modelTestReplySchema, printable, credential, profileCapabilitiesSchema } from "./model-settings-api.js";
import { errorReplies, operation } from "./operation.js";

/** The profile the `OPENAI_*` settings make, present whatever the file says. */
export const DEFAULT_PROFILE = "default";

/** Lower-case letters, digits and dashes: the name also names its key's setting, so two names never share one. */
export const profileNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "a profile name is 1-40 lower-case letters, digits and dashes, starting with a letter or digit");
export type ProfileName = z.infer<typeof profileNameSchema>;

/** The KEY.md setting (or environment variable) that holds a profile's key. */
export function profileKeySetting(name: string): string {
  return name === DEFAULT_PROFILE ? "OPENAI_API_KEY" : `MODEL_${name.toUpperCase().replaceAll("-", "_")}_API_KEY`;
}

const modelName = modelNameOf(1);

/** Prices in US dollars per million tokens, as the provider lists them. */
export const profilePricesSchema = z.strictObject({
  input: z.number().min(0).max(10_000),
  /** Input tokens the provider served from its prompt cache (absent: the input price). */
  cached_input: z.number().min(0).max(10_000).optional(),
  output: z.number().min(0).max(10_000),
});
export type ProfilePrices = z.infer<typeof profilePricesSchema>;

/**
 * How a server departs from OpenAI's chat completions, declared per profile where detection (by the
 * server's documented host) is not enough. Each field absent: as detected.
 */
export const providerCompatSchema = z.strictObject({
  /**
   * The reasoning of a step that called tools, sent back on its assistant message as
   * `reasoning_content`: `tool_steps` always, in the turn and every later one (DeepSeek's thinking mode
   * refuses a request without it, with a 400); `auto` once the server has streamed `reasoning_content`
   * in the turn; `never` (OpenAI refuses fields it does not know).
   */
  reasoning_back: z.enum(["auto", "tool_steps", "never"]).optional(),
  /** Reasoning written between `<think>` and `</think>` in the content (Qwen3, R1 distills without a reasoning parser) is a thought; false: content is the answer as written. */
  think_tags: z.boolean().optional(),
});
export type ProviderCompat = z.infer<typeof providerCompatSchema>;

/** The quirks a profile's requests are made with: its declared ones over those detected for its server. */
export const compatInForceSchema = z.object({
  reasoning_back: z.enum(["auto", "tool_steps", "never"]),
  think_tags: z.boolean(),
  /** The documented server whose quirks were detected by its host, or null. */
  detected_for: z.string().nullable(),
});
export type CompatInForce = z.infer<typeof compatInForceSchema>;

/** A profile as `MODELS.json` holds it (under its name). For `default`, `base_url` and `model` come from `OPENAI_*` and may be left out. */
export const profileFileEntrySchema = z.strictObject({
  /** Absent or null: OpenAI's own endpoint. */
  base_url: printable(500).nullable().optional(),
  model: modelName.optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_output_tokens: z.number().int().positive().max(1_000_000).optional(),
  /** Sent as `reasoning_effort`, for servers that take it. */
  reasoning_effort: z.enum(["minimal", "low", "medium", "high"]).optional(),
  /** Tokens the model's context holds: the session is compacted before a request would pass three quarters of it. */
  context_window: z.number().int().min(1_000).max(10_000_000).optional(),
  capabilities: profileCapabilitiesSchema.optional(),
  prices: profilePricesSchema.optional(),
  /** Profiles to go on with, in order, when this one's endpoint is down, refuses (429, 5xx) or times out before the first token. */
  fallbacks: z.array(profileNameSchema).max(5).optional(),
  compat: providerCompatSchema.optional(),
});
export type ProfileFileEntry = z.infer<typeof profileFileEntrySchema>;

/** Which profile each helper uses; absent or null: the session's. */
export const helperProfilesSchema = z.strictObject({
  reviewer: profileNameSchema.nullable().optional(),
  compaction: profileNameSchema.nullable().optional(),
  /** Session titles: made from the first message today (no model call); kept for when they are not. */
  titles: profileNameSchema.nullable().optional(),
  /** The memory helper: the daily consolidation and Save as skill (absent: the default profile). */
  memory: profileNameSchema.nullable().optional(),
});
export type HelperProfiles = z.infer<typeof helperProfilesSchema>;

/** `MODELS.json`. */
export const modelsFileSchema = z.strictObject({
  /** The profile new sessions use (absent: `default`). */
  default: profileNameSchema.optional(),
  profiles: z.record(profileNameSchema, profileFileEntrySchema).optional(),
  helpers: helperProfilesSchema.optional(),
});
export type ModelsFile = z.infer<typeof modelsFileSchema>;

/** A profile as the API shows it: everything but the key, which is only said to be set or not. */
export const modelProfileSchema = profileFileEntrySchema
  .extend({
    name: profileNameSchema,
    base_url: z.string().nullable(),
    model: z.string(),
    api_key_set: z.boolean(),
    /** It has a key or a base URL: chat with it is on (a profile with neither fails with `model_not_configured`). */
    configured: z.boolean(),
    /** The KEY.md setting (or environment variable) its key is read from. */
    key_setting: z.string(),
    fallbacks: z.array(profileNameSchema),
    compat_in_force: compatInForceSchema,
  })
  .meta({ id: "ModelProfile" });
export type ModelProfile = z.infer<typeof modelProfileSchema>;

/** `GET /api/models`. */
export const modelsReplySchema = z
  .object({
    default: profileNameSchema,
    profiles: z.array(modelProfileSchema),
    helpers: helperProfilesSchema,
    /** The profiles file, at the data root. */
    file: z.string(),
    /** Why the file was not read (its last good profiles stay in use), or null. */
    problem: z.string().nullable(),
  })
  .meta({ id: "ModelsReply" });
export type ModelsReply = z.infer<typeof modelsReplySchema>;

/** `PUT /api/models/:name`: creates or replaces the profile (an absent `api_key` keeps the saved key; "": none). */
export const profileUpdateSchema = profileFileEntrySchema
  .extend({
    model: modelName,
    api_key: credential(2000).optional(),
    /** With no `api_key` and a base URL on another host than the saved key's: send the saved key there too (otherwise refused, 409). */
    key_to_new_host: z.boolean().optional(),
  })
  .meta({ id: "ProfileUpdate" });
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** `PUT /api/models`: which profile is the default, and the helpers' profiles. */
export const modelsSettingsUpdateSchema = z
  .strictObject({ default: profileNameSchema.optional(), helpers: helperProfilesSchema.optional() })
  .meta({ id: "ModelsSettingsUpdate" });

/** `POST /api/models/test`: tries a profile as given (an absent `api_key`: the key saved for `name`). */
export const profileTestSchema = profileUpdateSchema.extend({ name: profileNameSchema.optional() }).meta({ id: "ProfileTest" });

const profileParams = z.object({ name: z.string().max(100) });

/** `GET /api/usage`: tokens and cost per day and profile. */
export const usageQuerySchema = z.object({
  /** First day (YYYY-MM-DD, UTC), inclusive; absent: 30 days before `to`. */
  from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  /** Last day, inclusive; absent: today. */
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
});

/** Tokens of some model requests, and what they cost where the profile has prices. */
export const usageTotalsSchema = z.object({
  requests: z.number().int(),
  input_tokens: z.number(),
  cached_tokens: z.number(),
  output_tokens: z.number(),
  reasoning_tokens: z.number(),
  /** US dollars; null when no request of these had a price. */
  cost: z.number().nullable(),
});
export type UsageTotals = z.infer<typeof usageTotalsSchema>;

/** Usage by profile, the helpers' apart (`by`: the turn's own agent, sub-agents, the reviewer, compaction, the memory helper's turns). */
export const usageRowSchema = usageTotalsSchema.extend({
  profile: z.string(),
  model: z.string(),
  by: z.enum(["agent", "sub_agent", "reviewer", "compaction", "consolidation"]),
});
export type UsageRow = z.infer<typeof usageRowSchema>;

export const usageReplySchema = z
  .object({
    from: z.string(),
    to: z.string(),
    days: z.array(z.object({ day: z.string(), rows: z.array(usageRowSchema) })),
    total: usageTotalsSchema,
  })
  .meta({ id: "UsageReply" });
export type UsageReply = z.infer<typeof usageReplySchema>;

export const modelsApi = {
  list: operation({ method: "GET", path: "/api/models", summary: "The model profiles (keys only said to be set), the default, the helpers' profiles", responses: { 200: modelsReplySchema } }),
  settings: operation({
    method: "PUT",
    path: "/api/models",
    summary: "Sets the default profile and the helpers' profiles (saved to MODELS.json)",
    body: modelsSettingsUpdateSchema,
    responses: { 200: modelsReplySchema, ...errorReplies(400, 409) },
  }),
  save: operation({
    method: "PUT",
    path: "/api/models/:name",
    summary: "Creates or replaces a profile (MODELS.json; its key in KEY.md); used from the next request on",
    params: profileParams,
    body: profileUpdateSchema,
    responses: { 200: modelsReplySchema, ...errorReplies(400, 409) },
  }),
  remove: operation({
    method: "DELETE",
    path: "/api/models/:name",
    summary: "Deletes a profile; sessions on it go back to the default",
    params: profileParams,
    responses: { 200: modelsReplySchema, ...errorReplies(400, 404, 409) },
  }),
  test: operation({
    method: "POST",
    path: "/api/models/test",
    summary: "Tries a profile before it is saved: models, chat, streaming, tools, reasoning, usage",
    body: profileTestSchema,
    responses: { 200: modelTestReplySchema, ...errorReplies(400) },
  }),
  usage: operation({
    method: "GET",
    path: "/api/usage",
    summary: "Tokens and cost per day (UTC) and profile, from the sessions' turns",
    querystring: usageQuerySchema,
    responses: { 200: usageReplySchema, ...errorReplies(400) },
  }),
};
