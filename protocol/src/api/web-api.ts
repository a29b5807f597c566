import { z } from "zod";
import { errorReplies, operation } from "./operation.js";

/** The search providers `web_search` can use (`WEB.json`'s `search.provider`). */
export const searchProviderSchema = z.enum(["searxng", "brave", "tavily", "serper"]);
export type SearchProvider = z.infer<typeof searchProviderSchema>;

/** Where each provider's key is read from (KEY.md or the environment, like the model keys); SearXNG takes none. */
export const SEARCH_KEY_SETTINGS = { searxng: null, brave: "BRAVE_API_KEY", tavily: "TAVILY_API_KEY", serper: "SERPER_API_KEY" } as const satisfies Record<SearchProvider, string | null>;
export type SearchKeySetting = Exclude<(typeof SEARCH_KEY_SETTINGS)[SearchProvider], null>;

/** One search result as `web_search` gives it (the tool's `details.results`, the test's reply). */
export const webSearchResultSchema = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  /** When the page was published, as the provider gives it. */
  published: z.string().optional(),
});
export type WebSearchResult = z.infer<typeof webSearchResultSchema>;

/** `GET /api/web/status`: the search provider in force (never its key). */
export const webStatusReplySchema = z
  .object({
    search: z.object({
      /** Null: no provider is set, and `web_search` is not offered. */
      provider: searchProviderSchema.nullable(),
      /** The endpoint searched (SearXNG's is the user's own). */
      url: z.string().nullable(),
      /** The KEY.md setting the provider's key is read from, and whether it is set. */
      key_setting: z.string().nullable(),
      key_set: z.boolean(),
      /** Why WEB.json is not used as written (the last good settings are), or why search cannot run. */
      problem: z.string().nullable(),
      /** Queries answered from the 15-minute cache so far, and searches sent. */
      cached: z.number().int(),
      searched: z.number().int(),
    }),
    /** The `browser` tool: offered while a Chromium is installed; the sessions whose browser runs now. */
    browser: z.object({
      available: z.boolean(),
      /** The browser driven (BROWSER_PATH, or the system's chromium or Chrome); null when none is installed. */
      executable: z.string().nullable(),
      memory_limit_mb: z.number().int(),
      sessions: z.array(z.object({ session_id: z.string(), tabs: z.number().int(), memory_mb: z.number().int(), started_at: z.number(), idle_ms: z.number() })),
    }),
  })
  .meta({ id: "WebStatusReply" });
export type WebStatusReply = z.infer<typeof webStatusReplySchema>;

/** `POST /api/web/test`: one search with the settings in force, as the Model dialog tries a model. */
export const webTestRequestSchema = z.object({ query: z.string().min(1).max(400) }).meta({ id: "WebTestRequest" });
export const webTestReplySchema = z
  .object({ provider: searchProviderSchema, results: z.array(webSearchResultSchema), duration_ms: z.number(), cached: z.boolean() })
  .meta({ id: "WebTestReply" });
export type WebTestReply = z.infer<typeof webTestReplySchema>;

/** What a browser card carries (the `browser` tool's `details`): the step, the page, its screenshot's id. */
export const browserStepSchema = z.object({
  action: z.string(),
  url: z.string().optional(),
  title: z.string().optional(),
  screenshot: z.object({ id: z.string(), width: z.number().int(), height: z.number().int(), bytes: z.number().int() }).nullable().optional(),
  outline_chars: z.number().int().optional(),
  outline_cut: z.boolean().optional(),
  notes: z.array(z.string()).optional(),
  tabs: z.number().int().optional(),
  duration_ms: z.number().optional(),
});
export type BrowserStep = z.infer<typeof browserStepSchema>;

/** `POST /api/web/save`: a page the session's browser has open, saved into knowledge/ as Markdown. */
export const webSaveRequestSchema = z.object({ session_id: z.string().min(1).max(200), url: z.string().min(1).max(4000) }).meta({ id: "WebSaveRequest" });
export const webSaveReplySchema = z.object({ path: z.string(), chars: z.number().int() }).meta({ id: "WebSaveReply" });
export type WebSaveReply = z.infer<typeof webSaveReplySchema>;

export const webApi = {
  status: operation({ method: "GET", path: "/api/web/status", summary: "The web search provider in force (never its key), and how many searches were sent and answered from the cache", responses: { 200: webStatusReplySchema } }),
  test: operation({
    method: "POST",
    path: "/api/web/test",
    summary: "Searches once with the provider in force and answers the results, or what the provider said; only from the workbench's own page",
    body: webTestRequestSchema,
    responses: { 200: webTestReplySchema, ...errorReplies(400, 403, 409, 429, 502, 504) },
  }),
  screenshot: operation({
    method: "GET",
    path: "/api/web/screenshots/:id",
    summary: "A browser step's screenshot (JPEG), by the id its card carries",
    params: z.object({ id: z.string().max(100) }),
    responses: { 200: { contentType: "image/jpeg", description: "The screenshot." }, ...errorReplies(404) },
  }),
  save: operation({
    method: "POST",
    path: "/api/web/save",
    summary: "Saves a page the session's browser has open into knowledge/web/ as Markdown (its URL and date on top); only from the workbench's own page",
    body: webSaveRequestSchema,
    responses: { 200: webSaveReplySchema, ...errorReplies(400, 403, 404, 409) },
  }),
};
