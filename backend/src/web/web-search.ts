/**
 * Web search for the agent (`web_search`) and the Web settings' Test: the provider in `WEB.json`
 * (a settings file: watched, last good kept), its key from KEY.md or the environment (never served,
 * scrubbed everywhere), each query's results cached for 15 minutes. What a provider says when it
 * fails (a refused key, a rate limit, down, garbage, too much, nothing) is said in one sentence.
 * The endpoint is the user's choice, like the model endpoint: it is not the agent's fetch guard's to refuse.
 */
import type { SearchKeySetting, SearchProvider, WebSearchResult, WebStatusReply } from "@mini-openclaw/protocol";
import { SEARCH_KEY_SETTINGS, searchProviderSchema } from "@mini-openclaw/protocol";
import { z } from "zod";
import { UserError } from "../lib/user-error.js";
import { readCapped } from "../net/read-capped.js";
import { maskValue } from "../settings/secret-mask.js";
import { WEB_FILE } from "../settings/settings-files.js";
import { type Parsed, parseJsonFile, WatchedJsonFile } from "../settings/watched-json-file.js";
import { DEFAULT_ENDPOINTS, providerRequest, providerResults } from "./search-providers.js";

export const SEARCH_LIMITS = { maxReplyBytes: 2 * 1024 * 1024, cacheMs: 15 * 60 * 1000, cacheEntries: 500, defaultResults: 5, maxResults: 20 };

export const webFileSchema = z
  .looseObject({
    search: z
      .strictObject({
        provider: searchProviderSchema,
        /** SearXNG: the server's base URL (required). Others: another endpoint than the provider's own (a proxy). */
        url: z.url({ protocol: /^https?$/ }).optional(),
        /** Results a search gives the agent (default 5, at most 20). */
        max_results: z.number().int().min(1).max(SEARCH_LIMITS.maxResults).optional(),
      })
      .optional(),
  })
  .meta({ title: "WEB.json", description: "The web search provider the agent's web_search tool uses (keys go in KEY.md)." });
export type WebFile = z.infer<typeof webFileSchema>;

function parseWebFile(text: string): Parsed<WebFile> {
  const parsed = parseJsonFile(WEB_FILE, text, webFileSchema);
  if ("problem" in parsed) return parsed;
  const search = parsed.value.search;
  if (search?.provider === "searxng" && !search.url) return { problem: `${WEB_FILE}: search.url: SearXNG needs the URL of your SearXNG server (its JSON format switched on)` };
  return parsed;
}

const NAMES: Record<SearchProvider, string> = { searxng: "SearXNG", brave: "Brave Search", tavily: "Tavily", serper: "Serper" };

export interface WebSearchDeps {
  dataRoot: string;
  /** The providers' keys as KEY.md and the environment set them (read at start). */
  keys: Readonly<Record<SearchKeySetting, string | null>>;
  /** How long a search waits for its provider. */
  timeoutMs: number;
  log: { warn(obj: object, msg: string): void };
  onChange: () => void;
  watch?: boolean;
}

export class WebSearch {
  private readonly file: WatchedJsonFile<WebFile>;
  private readonly cache = new Map<string, { at: number; results: WebSearchResult[] }>();
  private counts = { cached: 0, searched: 0 };

  constructor(private readonly deps: WebSearchDeps) {
    this.file = new WatchedJsonFile({ dataRoot: deps.dataRoot, name: WEB_FILE, maxBytes: 64 * 1024, parse: parseWebFile, missing: {}, lastGood: "the last good settings stay in force", log: deps.log, onChange: deps.onChange, ...(deps.watch !== undefined ? { watch: deps.watch } : {}) });
  }

  start(): Promise<void> {
    return this.file.start();
  }

  close(): void {
    this.file.close();
  }

  reload(): Promise<void> {
    return this.file.reload();
  }

  private settings() {
    const search = this.file.value.search;
    if (!search) return null;
    const endpoint = search.url ?? DEFAULT_ENDPOINTS[search.provider];
    const keySetting = SEARCH_KEY_SETTINGS[search.provider];
    return { provider: search.provider, endpoint, keySetting, key: keySetting ? this.deps.keys[keySetting] : null, count: search.max_results ?? SEARCH_LIMITS.defaultResults };
  }

  /** Why a search cannot run as set up, or null. */
  private unusable(settings: NonNullable<ReturnType<WebSearch["settings"]>>): string | null {
    if (!settings.endpoint) return `${NAMES[settings.provider]} needs a URL in ${WEB_FILE}`;
    if (settings.keySetting && !settings.key) return `${NAMES[settings.provider]} needs a key: set ${settings.keySetting} in KEY.md (or the environment) and restart`;
    return null;
  }

  /** The endpoint in force, for the secret scrubber (a SearXNG URL may carry a token). */
  get endpoint(): string | null {
    return this.settings()?.endpoint ?? null;
  }

  /** Whether `web_search` is offered: a provider is set and can run. */
  get available(): boolean {
    const settings = this.settings();
    return settings !== null && this.unusable(settings) === null;
  }

  status(): Pick<WebStatusReply, "search"> {
    const settings = this.settings();
    return {
      search: {
        provider: settings?.provider ?? null,
        // A URL's password and query values are credentials: shown masked, as in the Inspector.
        url: settings?.endpoint ? maskValue(settings.endpoint, "url") : null,
        key_setting: settings?.keySetting ?? null,
        key_set: settings?.key != null && settings.key !== "",
        problem: this.file.problem ?? (settings ? this.unusable(settings) : null),
        ...this.counts,
      },
    };
  }

  /** Searches with the provider in force (from the cache when the same query was searched in the last 15 minutes). */
  async search(query: string, signal?: AbortSignal, count?: number): Promise<{ provider: SearchProvider; results: WebSearchResult[]; cached: boolean }> {
    const settings = this.settings();
    if (!settings) throw new UserError("conflict", `No web search provider is set up: name one in ${WEB_FILE} (SearXNG, Brave Search, Tavily or Serper).`);
    const problem = this.unusable(settings);
    if (problem) throw new UserError("conflict", `Web search cannot run: ${problem}.`);
    const wanted = Math.min(count ?? settings.count, SEARCH_LIMITS.maxResults);
    const cacheKey = JSON.stringify([settings.provider, settings.endpoint, wanted, query.trim().toLowerCase()]);
    const hit = this.cache.get(cacheKey);
    if (hit && Date.now() - hit.at < SEARCH_LIMITS.cacheMs) {
      this.counts.cached++;
      return { provider: settings.provider, results: hit.results, cached: true };
    }
    const results = await this.ask(settings.provider, settings.endpoint!, settings.key, query, wanted, signal);
    this.counts.searched++;
    this.cache.delete(cacheKey);
    this.cache.set(cacheKey, { at: Date.now(), results });
    if (this.cache.size > SEARCH_LIMITS.cacheEntries) this.cache.delete(this.cache.keys().next().value as string);
    return { provider: settings.provider, results, cached: false };
  }

  private async ask(provider: SearchProvider, endpoint: string, key: string | null, query: string, count: number, signal?: AbortSignal): Promise<WebSearchResult[]> {
    const name = NAMES[provider];
    const request = providerRequest(provider, endpoint, key, query, count);
    const timeout = AbortSignal.timeout(this.deps.timeoutMs);
    const seconds = this.deps.timeoutMs / 1000;
    let response: Response;
    try {
      response = await fetch(request.url, { ...request.init, redirect: "error", signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (err) {
      if (signal?.aborted) throw err;
      if (timeout.aborted) throw new UserError("timed_out", `${name} did not answer within ${seconds} s.`);
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new UserError("upstream_failed", `${name} is unreachable at ${new URL(request.url).origin} (${cause?.code ?? cause?.message ?? (err as Error).message}).`);
    }
    // The request's signal covers the body too: a provider that stops mid-answer times out here.
    const body = await readCapped(response.body, SEARCH_LIMITS.maxReplyBytes).catch((err: Error) => {
      if (timeout.aborted) throw new UserError("timed_out", `${name} did not finish its answer within ${seconds} s.`);
      throw err;
    });
    if (!response.ok) throw new UserError(response.status === 429 ? "limit_reached" : "upstream_failed", failureSentence(name, provider, response.status));
    if (body.cut) throw new UserError("upstream_failed", `${name} answered more than ${SEARCH_LIMITS.maxReplyBytes / 1024 / 1024} MB; no results were read.`);
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(body.bytes));
    } catch {
      throw new UserError("upstream_failed", `${name} answered with something that is not JSON${provider === "searxng" ? " (is the JSON format switched on in its settings.yml, under search.formats?)" : ""}.`);
    }
    const results = providerResults(provider, json, count);
    if (results === null) throw new UserError("upstream_failed", `${name} answered JSON that is not its search results.`);
    return results;
  }
}

/** What a failed status means, in the provider's terms. */
function failureSentence(name: string, provider: SearchProvider, status: number): string {
  const setting = SEARCH_KEY_SETTINGS[provider];
  if (status === 401 || status === 403) {
    return setting ? `${name} refused the key (HTTP ${status}): check ${setting} in KEY.md.` : `${name} refused the search (HTTP ${status}): is the JSON format switched on in its settings.yml?`;
  }
  if (status === 429 || status === 432 || status === 433) return `${name} is rate limiting or the plan's limit is reached (HTTP ${status}); try again later.`;
  if (status >= 500) return `${name} failed (HTTP ${status}); it may be down.`;
  return `${name} refused the request (HTTP ${status}).`;
}
