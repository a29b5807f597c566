/**
 * web_search through the real workbench: a fake SearXNG (its JSON format, `/search?q=&format=json`)
 * and a fake Brave Search (`/res/v1/web/search`, the key in `X-Subscription-Token`) written from
 * their documented replies, the scripted model calling the tool over HTTP. Not offered without a
 * provider; cached per query; every way a provider fails said in a sentence, and the key nowhere.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { WebStatusReply } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { callsThenAnswer, toolMessages } from "../test-support/mcp-harness.js";
import { chat, fetchSession, jsonOf, postJson, sessionIdOf, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
let provider: Server | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
  if (provider) {
    provider.closeAllConnections();
    await new Promise((r) => provider!.close(r));
  }
  provider = undefined;
});

const BRAVE_KEY = "BSA-test-key-4f1b9c2d7e8a";
const requests: Array<{ url: string; headers: IncomingMessage["headers"] }> = [];

/** A provider on a free port: `answer` writes each reply. */
async function startProvider(answer: (req: IncomingMessage, res: ServerResponse, url: URL) => void): Promise<string> {
  requests.length = 0;
  provider = createServer((req, res) => {
    requests.push({ url: req.url ?? "", headers: req.headers });
    answer(req, res, new URL(req.url ?? "/", "http://x"));
  });
  await new Promise<void>((r) => provider!.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
}
const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

/** SearXNG's JSON format, as its `format=json` answers. */
const searxng = (req: IncomingMessage, res: ServerResponse, url: URL) => {
  if (url.pathname !== "/search" || url.searchParams.get("format") !== "json") return json(res, 403, { error: "format not allowed" });
  const q = url.searchParams.get("q") ?? "";
  json(res, 200, {
    query: q,
    number_of_results: 2,
    results: [
      { url: "https://nodejs.org/en/blog/release/v24.0.0", title: "Node.js 24.0.0", content: `What changed: ${q}`, engine: "duckduckgo", engines: ["duckduckgo"], publishedDate: "2025-05-06T00:00:00" },
      { url: "https://example.org/node-24", title: "Node 24 notes", content: "Notes.", engine: "bing", publishedDate: null },
      { url: "javascript:alert(1)", title: "not a page", content: "" },
    ],
    answers: [],
    suggestions: [],
  });
};
/** Brave Search's web reply; a wrong token is its 401 error object. */
const brave = (req: IncomingMessage, res: ServerResponse, url: URL) => {
  if (req.headers["x-subscription-token"] !== BRAVE_KEY) return json(res, 401, { type: "ErrorResponse", error: { code: "SUBSCRIPTION_TOKEN_INVALID", status: 401, detail: "The provided subscription token is invalid." } });
  json(res, 200, { type: "search", query: { original: url.searchParams.get("q") }, web: { type: "search", results: [{ title: "Brave result", url: "https://brave.example/page", description: "A <strong>snippet</strong>.", page_age: "2026-11-01T00:00:00", age: "November 1, 2026" }] } });
};

async function withProvider(web: (url: string) => unknown, answer: Parameters<typeof startProvider>[0], env: Record<string, string> = {}, queries = ["what changed in Node 24?"]) {
  const url = await startProvider(answer);
  await startWith(web(url), env, queries);
  return url;
}
/** A workbench whose WEB.json is `web`, once the settings are in force. */
async function startWith(web: unknown, env: Record<string, string>, queries: string[]) {
  wb = await startWorkbench({ env: { WEB_SEARCH_TIMEOUT_MS: "1500", ...env }, script: callsThenAnswer(queries.map((query) => ({ name: "web_search", args: { query } }))) });
  await writeFile(join(wb.dataRoot, "WEB.json"), JSON.stringify(web));
  await expect.poll(async () => (await jsonOf<WebStatusReply>(fetch(`${wb!.url}/api/web/status`))).search.provider, { timeout: 5000 }).not.toBeNull();
}
const toolsOffered = (wb: Workbench) => wb.model.requests[0].body.tools?.map((t) => (t as { function: { name: string } }).function.name) ?? [];

describe("web_search", () => {
  it("searches SearXNG: results as a numbered list the model reads, details for the card; the same query again comes from the cache", async () => {
    // A SearXNG reached with a token in its URL: the token is a credential.
    await withProvider((url) => ({ search: { provider: "searxng", url: `${url}/?token=searx-token-5d8e1f` } }), searxng, {}, ["what changed in Node 24?", "What changed in Node 24? "]);
    const events = await chat(wb!, "what changed in Node 24?");
    expect(toolsOffered(wb!)).toContain("web_search");
    const [first, second] = events.filter((e) => e.type === "tool_result");
    expect(first).toMatchObject({ ok: true, details: { provider: "searxng", cached: false, results: [{ title: "Node.js 24.0.0", url: "https://nodejs.org/en/blog/release/v24.0.0", published: "2025-05-06T00:00:00" }, { title: "Node 24 notes" }] } });
    expect(first.type === "tool_result" && first.output).toContain("1. Node.js 24.0.0\n   https://nodejs.org/en/blog/release/v24.0.0\n   2025-05-06T00:00:00\n   What changed: what changed in Node 24?");
    expect(first.type === "tool_result" && first.output).not.toContain("javascript:");
    expect(second).toMatchObject({ ok: true, details: { cached: true } });
    expect(requests).toHaveLength(1);
    expect(new URL(requests[0].url, "http://x").searchParams.get("format")).toBe("json");
    expect(toolMessages(wb!.model.requests[1].body)[0]).toContain("https://nodejs.org/en/blog/release/v24.0.0");
    expect(new URL(requests[0].url, "http://x").searchParams.get("token")).toBe("searx-token-5d8e1f");
    const status = await jsonOf<WebStatusReply>(fetch(`${wb!.url}/api/web/status`));
    expect(status.search).toMatchObject({ provider: "searxng", key_setting: null, searched: 1, cached: 1, problem: null, url: expect.stringContaining("token=••••••••") });
    expect(JSON.stringify([status, events])).not.toContain("searx-token-5d8e1f");
    // The stored card replays with its results.
    const stored = (await fetchSession(wb!.url, sessionIdOf(events))).entries.filter((e) => e.type === "event" && e.event.type === "tool_result");
    expect(stored).toHaveLength(2);
  });

  it("Brave Search with the key from KEY.md or the environment: sent as its header, never seen again; a wrong key is said plainly", async () => {
    const base = await startProvider(brave);
    const web = { search: { provider: "brave", url: `${base}/res/v1/web/search`, max_results: 3 } };
    await startWith(web, { BRAVE_API_KEY: BRAVE_KEY }, ["cheapest flights"]);
    if (!wb) throw new Error("no workbench");
    expect((await jsonOf<WebStatusReply>(fetch(`${wb.url}/api/web/status`))).search).toMatchObject({ provider: "brave", key_setting: "BRAVE_API_KEY", key_set: true });
    const events = await chat(wb, "find flights");
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ ok: true, details: { provider: "brave", results: [{ title: "Brave result", url: "https://brave.example/page", published: "2026-11-01T00:00:00" }] } });
    expect(requests.at(-1)!.headers["x-subscription-token"]).toBe(BRAVE_KEY);
    expect(new URL(requests.at(-1)!.url, "http://x").searchParams.get("count")).toBe("3");
    const everything = JSON.stringify([events, await fetchSession(wb.url, sessionIdOf(events)), await jsonOf(fetch(`${wb.url}/api/web/status`)), wb.model.requests.map((r) => r.body)]);
    expect(everything).not.toContain(BRAVE_KEY);
    await wb.close();
    await startWith(web, { BRAVE_API_KEY: "BSA-wrong-key-000000" }, ["x"]);
    const refused = await chat(wb!, "search");
    expect(refused.find((e) => e.type === "tool_result")).toMatchObject({ ok: false, output: "Error: Brave Search refused the key (HTTP 401): check BRAVE_API_KEY in KEY.md." });
    expect(refused.at(-1)).toMatchObject({ type: "final" });
  });

  it("without a provider (or without its key) the tool is not offered and the status says how to set one up", async () => {
    wb = await startWorkbench({ script: [{ content: "no search" }] });
    await chat(wb, "hello");
    expect(toolsOffered(wb)).not.toContain("web_search");
    expect((await jsonOf<WebStatusReply>(fetch(`${wb.url}/api/web/status`))).search).toMatchObject({ provider: null, problem: null });
    await writeFile(join(wb.dataRoot, "WEB.json"), JSON.stringify({ search: { provider: "tavily" } }));
    await expect.poll(async () => (await jsonOf<WebStatusReply>(fetch(`${wb!.url}/api/web/status`))).search.problem, { timeout: 5000 }).toBe("Tavily needs a key: set TAVILY_API_KEY in KEY.md (or the environment) and restart");
    await chat(wb, "again");
    expect(wb.model.requests[1].body.tools?.map((t) => (t as { function: { name: string } }).function.name)).not.toContain("web_search");
    // A broken file: named, the last good settings kept.
    await writeFile(join(wb.dataRoot, "WEB.json"), JSON.stringify({ search: { provider: "altavista" } }));
    await expect.poll(async () => (await jsonOf<WebStatusReply>(fetch(`${wb!.url}/api/web/status`))).search.problem ?? "", { timeout: 5000 }).toMatch(/^WEB\.json: search\.provider: .*the last good settings stay in force/);
  });

  it("a provider that answers 500, garbage, 10 MB, 429 or nothing: one sentence each to the agent, and the turn goes on", async () => {
    const cases: Array<[string, (req: IncomingMessage, res: ServerResponse) => void, string]> = [
      ["500", (_q, res) => json(res, 500, { error: "boom" }), "SearXNG failed (HTTP 500); it may be down."],
      ["garbage", (_q, res) => void res.end("<html>not json</html>"), "SearXNG answered with something that is not JSON (is the JSON format switched on in its settings.yml, under search.formats?)."],
      ["wrong JSON", (_q, res) => json(res, 200, { results: "none" }), "SearXNG answered JSON that is not its search results."],
      ["10 MB", (_q, res) => { res.writeHead(200, { "content-type": "application/json" }); res.end(`{"results":[${'{"url":"https://a.example","title":"x","content":"y"},'.repeat(200_000)}{}]}`); }, "SearXNG answered more than 2 MB; no results were read."],
      ["429", (_q, res) => json(res, 429, {}), "SearXNG is rate limiting or the plan's limit is reached (HTTP 429); try again later."],
      ["nothing", () => {}, "SearXNG did not answer within 1.5 s."],
    ];
    const queries = cases.map(([name]) => `query ${name}`);
    let index = 0;
    await withProvider((url) => ({ search: { provider: "searxng", url } }), (req, res) => cases[index++][1](req, res), {}, queries);
    const events = await chat(wb!, "search them all");
    const results = events.filter((e) => e.type === "tool_result");
    expect(results.map((r) => r.type === "tool_result" && [r.ok, r.output])).toEqual(cases.map(([, , said]) => [false, `Error: ${said}`]));
    expect(events.at(-1)).toMatchObject({ type: "final" });
  });

  it("Test from the page searches once; from elsewhere it is refused", async () => {
    const url = await withProvider((u) => ({ search: { provider: "searxng", url: u } }), searxng);
    expect(url).toMatch(/^http/);
    const tried = await postJson(`${wb!.url}/api/web/test`, { query: "node" }, { headers: { origin: wb!.url } });
    expect(tried.status).toBe(200);
    expect(await tried.json()).toMatchObject({ provider: "searxng", cached: false, results: [{ title: "Node.js 24.0.0" }, { title: "Node 24 notes" }] });
    expect((await postJson(`${wb!.url}/api/web/test`, { query: "node" }, { headers: { origin: "http://evil.example" } })).status).toBe(403);
  });
});
