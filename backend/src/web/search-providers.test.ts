import { describe, expect, it } from "vitest";
import { providerRequest, providerResults } from "./search-providers.js";

// Each provider's request and reply as its API documents them.
describe("search providers", () => {
  it("asks each provider its own way: SearXNG's JSON format, Brave's token header, Tavily's bearer key, Serper's X-API-KEY", () => {
    expect(providerRequest("searxng", "http://127.0.0.1:8888/", null, "a b", 5).url).toBe("http://127.0.0.1:8888/search?q=a+b&format=json");
    expect(providerRequest("searxng", "https://s.example/searx?token=t1", null, "q", 5).url).toBe("https://s.example/searx/search?token=t1&q=q&format=json");
    const brave = providerRequest("brave", "https://api.search.brave.com/res/v1/web/search", "k1", "q", 3);
    expect(brave).toEqual({ url: "https://api.search.brave.com/res/v1/web/search?q=q&count=3", init: { method: "GET", headers: { accept: "application/json", "x-subscription-token": "k1" } } });
    const tavily = providerRequest("tavily", "https://api.tavily.com/search", "tvly-k", "q", 4);
    expect(tavily.init).toMatchObject({ method: "POST", headers: { authorization: "Bearer tvly-k" } });
    expect(JSON.parse(tavily.init.body!)).toEqual({ query: "q", max_results: 4, search_depth: "basic" });
    const serper = providerRequest("serper", "https://google.serper.dev/search", "sk", "q", 2);
    expect(serper.init).toMatchObject({ method: "POST", headers: { "x-api-key": "sk" } });
    expect(JSON.parse(serper.init.body!)).toEqual({ q: "q", num: 2 });
  });

  it("reads Tavily's and Serper's replies; only web pages, each once, at most the count", () => {
    const tavily = { query: "q", results: [{ title: "T", url: "https://t.example", content: "c", score: 0.9, published_date: "2026-01-02" }, { title: "dup", url: "https://t.example", content: "" }], response_time: 0.5 };
    expect(providerResults("tavily", tavily, 5)).toEqual([{ title: "T", url: "https://t.example", snippet: "c", published: "2026-01-02" }]);
    const serper = { searchParameters: { q: "q" }, organic: [{ title: "S", link: "https://s.example", snippet: "s", position: 1, date: "Jan 2, 2026" }, { title: "ftp", link: "ftp://x", snippet: "" }, { title: "S2", link: "https://s2.example", snippet: "" }] };
    expect(providerResults("serper", serper, 1)).toEqual([{ title: "S", url: "https://s.example", snippet: "s", published: "Jan 2, 2026" }]);
    expect(providerResults("serper", {}, 5)).toEqual([]);
    expect(providerResults("tavily", { results: "x" }, 5)).toBeNull();
    // A title that is not a string is read as none, not as a failure.
    expect(providerResults("searxng", { results: [{ url: "https://x.example", title: 42, content: null }] }, 5)).toEqual([{ title: "", url: "https://x.example", snippet: "" }]);
  });
});
