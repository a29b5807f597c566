/**
 * Each search provider's request and reply, as its own API documents them: SearXNG's JSON format
 * (`/search?q=&format=json`, on a server the user runs, no key), Brave Search's web endpoint
 * (`X-Subscription-Token`), Tavily's search (`Authorization: Bearer`), Serper's Google search
 * (`X-API-KEY`). A reply is read with a schema; what does not fit is the provider's garbage, said so.
 */
import type { SearchProvider, WebSearchResult } from "@mini-openclaw/protocol";
import { z } from "zod";

export interface ProviderRequest {
  url: string;
  init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string };
}

/** The endpoint each provider answers at, unless WEB.json names another (SearXNG has none: it is the user's). */
export const DEFAULT_ENDPOINTS: Record<SearchProvider, string | null> = {
  searxng: null,
  brave: "https://api.search.brave.com/res/v1/web/search",
  tavily: "https://api.tavily.com/search",
  serper: "https://google.serper.dev/search",
};

const text = z.string().catch("");
const optionalText = z.string().optional().catch(undefined);

const searxngReply = z.object({ results: z.array(z.looseObject({ url: z.string(), title: text, content: text, publishedDate: z.string().nullish().catch(null) })) });
const braveReply = z.object({ web: z.object({ results: z.array(z.looseObject({ url: z.string(), title: text, description: text, page_age: optionalText, age: optionalText })) }).optional() });
const tavilyReply = z.object({ results: z.array(z.looseObject({ url: z.string(), title: text, content: text, published_date: optionalText })) });
const serperReply = z.object({ organic: z.array(z.looseObject({ link: z.string(), title: text, snippet: text, date: optionalText })).optional() });

/** The HTTP request one search is. `endpoint`: SearXNG's base URL, or another provider's endpoint. */
export function providerRequest(provider: SearchProvider, endpoint: string, key: string | null, query: string, count: number): ProviderRequest {
  const json = { accept: "application/json" };
  switch (provider) {
    case "searxng": {
      // The server's base URL (any query it holds kept: a token some deployments put there).
      const url = new URL(endpoint);
      if (!url.pathname.endsWith("/search")) url.pathname = `${url.pathname.replace(/\/+$/, "")}/search`;
      url.searchParams.set("q", query);
      url.searchParams.set("format", "json");
      return { url: url.toString(), init: { method: "GET", headers: json } };
    }
    case "brave": {
      const url = new URL(endpoint);
      url.searchParams.set("q", query);
      url.searchParams.set("count", String(count));
      return { url: url.toString(), init: { method: "GET", headers: { ...json, "x-subscription-token": key ?? "" } } };
    }
    case "tavily":
      return { url: endpoint, init: { method: "POST", headers: { ...json, "content-type": "application/json", authorization: `Bearer ${key ?? ""}` }, body: JSON.stringify({ query, max_results: count, search_depth: "basic" }) } };
    case "serper":
      return { url: endpoint, init: { method: "POST", headers: { ...json, "content-type": "application/json", "x-api-key": key ?? "" }, body: JSON.stringify({ q: query, num: count }) } };
  }
}

/** The results in a provider's reply, or null when the reply is not what the provider sends. */
export function providerResults(provider: SearchProvider, body: unknown, count: number): WebSearchResult[] | null {
  const result = (title: string, url: string, snippet: string, published?: string | null): WebSearchResult => ({ title, url, snippet, ...(published ? { published } : {}) });
  let results: WebSearchResult[];
  switch (provider) {
    case "searxng": {
      const parsed = searxngReply.safeParse(body);
      if (!parsed.success) return null;
      results = parsed.data.results.map((r) => result(r.title, r.url, r.content, r.publishedDate));
      break;
    }
    case "brave": {
      const parsed = braveReply.safeParse(body);
      if (!parsed.success) return null;
      results = (parsed.data.web?.results ?? []).map((r) => result(r.title, r.url, r.description, r.page_age ?? r.age));
      break;
    }
    case "tavily": {
      const parsed = tavilyReply.safeParse(body);
      if (!parsed.success) return null;
      results = parsed.data.results.map((r) => result(r.title, r.url, r.content, r.published_date));
      break;
    }
    case "serper": {
      const parsed = serperReply.safeParse(body);
      if (!parsed.success) return null;
      results = (parsed.data.organic ?? []).map((r) => result(r.title, r.link, r.snippet, r.date));
      break;
    }
  }
  // Only web pages, each once, at most `count`.
  const seen = new Set<string>();
  return results.filter((r) => /^https?:\/\//i.test(r.url) && !seen.has(r.url) && seen.add(r.url)).slice(0, count);
}
