/**
 * Web search (issue 53, its first half) in a real Chromium against the real backend and a local
 * SearXNG stand-in (its JSON format): a search call's card lists its results as links; the Model
 * dialog's Web search section names the provider and Test searches once.
 */
import { createServer } from "node:http";
import { writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callsThenAnswer } from "../../backend/test-support/mcp-harness";
import { startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

const searxng = createServer((req, res) => {
  const q = new URL(req.url ?? "/", "http://x").searchParams.get("q") ?? "";
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ query: q, results: [{ url: "https://nodejs.org/en/blog/release/v24.0.0", title: "Node.js 24.0.0", content: `About ${q}`, publishedDate: "2025-05-06" }, { url: "https://example.org/notes", title: "Notes", content: "More." }] }));
});
let searxngUrl = "";
beforeAll(async () => {
  await new Promise<void>((r) => searxng.listen(0, "127.0.0.1", r));
  searxngUrl = `http://127.0.0.1:${(searxng.address() as AddressInfo).port}`;
});
afterAll(async () => {
  searxng.closeAllConnections();
  await new Promise((r) => searxng.close(r));
});

describe.skipIf(!chromiumAvailable)("web search in the workbench", () => {
  const session = browserSession("web-search");

  it("a search card lists its results as links; the Web search section tests the provider", async () => {
    const wb = session.use(await startWorkbench({ script: callsThenAnswer([{ name: "web_search", args: { query: "node 24" } }]) }));
    await writeFile(join(wb.dataRoot, "WEB.json"), JSON.stringify({ search: { provider: "searxng", url: searxngUrl } }));
    await expect.poll(async () => (await (await fetch(`${wb.url}/api/web/status`)).json()).search.provider, { timeout: 5000 }).toBe("searxng");
    const view = await session.open(wb.url);
    const { page } = view;
    await page.getByTestId("composer").fill("what changed in node 24?");
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    const card = page.locator('[data-testid="tool-card"][data-tool="web_search"]');
    const links = card.getByTestId("search-result-link");
    await expect.poll(() => links.count()).toBe(2);
    expect(await links.first().innerText()).toBe("Node.js 24.0.0");
    expect(await links.first().getAttribute("href")).toBe("https://nodejs.org/en/blog/release/v24.0.0");
    expect(await links.first().getAttribute("rel")).toContain("noopener");
    await view.shot("web-search-card");

    // Web search and the browser are set on the Settings page, in the Stage.
    await page.getByTestId("nav-settings").click();
    await page.getByTestId("settings-go-web").click();
    const section = page.getByTestId("stage-page").getByTestId("web-search-section");
    await section.scrollIntoViewIfNeeded();
    expect(await section.getByTestId("web-provider").innerText()).toContain("searxng");
    await section.getByTestId("web-test-query").fill("node");
    await section.getByTestId("web-test").click();
    await section.getByTestId("web-test-result").waitFor();
    expect(await section.getByTestId("web-test-result").innerText()).toContain("2 results");
    await view.shot("web-search-settings");
  });
});
