import { z } from "zod";
import type { WebSearch } from "../web/web-search.js";
import { SEARCH_LIMITS } from "../web/web-search.js";
import { type CoreTool, defineTool } from "./core-tool.js";

const schema = z.object({
  query: z.string().min(1).max(400).describe("What to search the web for, as you would type it into a search engine."),
  count: z.number().int().min(1).max(SEARCH_LIMITS.maxResults).optional().describe(`How many results (default ${SEARCH_LIMITS.defaultResults}).`),
});

/**
 * `web_search`: a query to the provider the user set up (WEB.json), answered as a numbered list of
 * title, URL, date and snippet; the agent reads a page with fetch_url. Offered only when a provider
 * is set up (core-tools.ts).
 */
export function webSearchTool({ web }: { web: WebSearch }): CoreTool<typeof schema> {
  return defineTool({
    name: "web_search",
    description:
      "Search the web. Returns a numbered list of results (title, URL, date when known, snippet). " +
      "Read a result's page with fetch_url. Results for the same query are cached for 15 minutes.",
    schema,
    async execute({ query, count }, call) {
      const { provider, results, cached } = await web.search(query, call.signal, count);
      const listed = results.map((r, i) => `${i + 1}. ${r.title || r.url}\n   ${r.url}${r.published ? `\n   ${r.published}` : ""}${r.snippet ? `\n   ${r.snippet}` : ""}`);
      const output = results.length === 0 ? `No results for "${query}".` : `Results for "${query}":\n\n${listed.join("\n\n")}`;
      return { ok: true, output, details: { provider, results, cached } };
    },
  });
}
