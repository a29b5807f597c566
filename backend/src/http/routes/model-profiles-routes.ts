import { api, profileNameSchema, type UsageReply } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import { probeModel } from "../../agent/probe-model.js";
import type { Config } from "../../config/config.js";
import { UserError } from "../../lib/user-error.js";
import type { ModelProfiles } from "../../models/model-profiles.js";
import type { SessionStore } from "../../sessions/session-store.js";
import { usageSummary } from "../../sessions/session-usage.js";
import type { UiEventBus } from "../../ui-events/ui-event-bus.js";
import { routeOf, typed } from "../api-route.js";
import { baseUrlOf } from "../../models/base-url.js";
import { checkKeyHost, keyForTest } from "../../models/key-host.js";

const DAY_MS = 86_400_000;
const MAX_DAYS = 366;

const profileName = (raw: string) => {
  const parsed = profileNameSchema.safeParse(raw);
  if (!parsed.success) throw new UserError("invalid_request", `"${raw.slice(0, 60)}" is not a profile name: ${parsed.error.issues[0].message}.`);
  return parsed.data;
};

/**
 * The model profiles (`MODELS.json`, keys in KEY.md): list (keys only said to be set), create or
 * replace, delete, set the default and the helpers' profiles, try one before saving; and the usage
 * of every session's model requests per day and profile.
 */
export async function modelProfilesRoutes(app: FastifyInstance, { config, models, sessions, ui }: { config: Config; models: ModelProfiles; sessions: SessionStore; ui: UiEventBus }) {
  const changed = () => ui.publish({ type: "refresh", target: "health" });

  typed(app).route({ ...routeOf(api.models.list), handler: async () => models.reply() });

  typed(app).route({ ...routeOf(api.models.settings), handler: async (request) => {
    const { default: name, helpers } = request.body;
    for (const profile of [name, ...Object.values(helpers ?? {})]) {
      if (profile && !models.has(profile)) throw new UserError("invalid_request", `Unknown model profile: "${profile}".`);
    }
    await models.settings(request.body);
    changed();
    return models.reply();
  } });

  typed(app).route({ ...routeOf(api.models.save), handler: async (request) => {
    const name = profileName(request.params.name);
    baseUrlOf(request.body.base_url, "base_url");
    for (const fallback of request.body.fallbacks ?? []) if (!models.has(fallback) || fallback === name) throw new UserError("invalid_request", `'fallbacks' names "${fallback}", which is ${fallback === name ? "this profile" : "no profile"}.`);
    const saved = models.resolve(name);
    if (saved && request.body.api_key === undefined) checkKeyHost(`the profile "${name}"`, saved.model.baseUrl, request.body.base_url, saved.model.apiKey, request.body.key_to_new_host);
    await models.save(name, request.body);
    ui.toast({ kind: "profile_saved", name, model: request.body.model });
    changed();
    return models.reply();
  } });

  typed(app).route({ ...routeOf(api.models.remove), handler: async (request) => {
    const name = profileName(request.params.name);
    await models.remove(name);
    ui.toast({ kind: "profile_deleted", name });
    changed();
    return models.reply();
  } });

  typed(app).route({ ...routeOf(api.models.test), handler: async (request, response) => {
    const controller = new AbortController();
    // The response's close, not the request's: that one fires as soon as the body has been read.
    response.raw.on("close", () => {
      if (!response.raw.writableEnded) controller.abort("client gone");
    });
    const { name, api_key: apiKey, base_url: baseUrl, model } = request.body;
    baseUrlOf(baseUrl, "base_url");
    const saved = name ? models.resolve(name) : null;
    // The saved key goes only to the host it was saved for, unless the user confirmed the new one.
    const key = apiKey === undefined ? keyForTest(saved?.model.baseUrl ?? null, baseUrl, saved?.model.apiKey ?? null, request.body.key_to_new_host) : apiKey.trim() || null;
    const settings = { ...config.model, baseUrl: baseUrl?.trim() || null, model: model.trim(), apiKey: key };
    // The profile alone: the embeddings are tried from the Model dialog's own test.
    return probeModel(settings, null, controller.signal, { vision: true });
  } });

  typed(app).route({ ...routeOf(api.models.usage), handler: async (request) => {
    const to = request.query.to ?? new Date().toISOString().slice(0, 10);
    const from = request.query.from ?? new Date(Date.parse(to) - 29 * DAY_MS).toISOString().slice(0, 10);
    if (Number.isNaN(Date.parse(from)) || Number.isNaN(Date.parse(to))) throw new UserError("invalid_request", "'from' and 'to' are days: YYYY-MM-DD.");
    if (from > to) throw new UserError("invalid_request", `'from' (${from}) is after 'to' (${to}).`);
    if ((Date.parse(to) - Date.parse(from)) / DAY_MS >= MAX_DAYS) throw new UserError("invalid_request", `At most ${MAX_DAYS} days at a time.`);
    const records = (await sessions.indexed()).flatMap((session) => session.usage).filter((r) => r.day >= from && r.day <= to);
    const byDay = new Map<string, typeof records>();
    for (const r of records) byDay.set(r.day, [...(byDay.get(r.day) ?? []), r]);
    const reply: UsageReply = {
      from,
      to,
      days: [...byDay.keys()].sort().map((day) => ({ day, rows: usageSummary(byDay.get(day)!).rows })),
      total: usageSummary(records).total,
    };
    return reply;
  } });
}

