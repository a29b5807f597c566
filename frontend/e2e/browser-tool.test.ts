/**
 * The browser tool (issue 53) in a real Chromium against the real backend and a local site: each step's
 * card shows its action, URL and screenshot; a screenshot opens in the Inspector; Save to knowledge
 * writes the page into knowledge/web/; the settings name the browser.
 */
import { access } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refOf } from "../../backend/test-support/browser-site";
import { toolMessages } from "../../backend/test-support/mcp-harness";
import { startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

const site = createServer((req, res) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  if ((req.url ?? "").startsWith("/result"))
    res.end(`<title>Result</title><main id="o"></main><script>o.innerHTML = "<h1>Sunny in " + new URLSearchParams(location.search).get("city") + "</h1>"</script>`);
  else res.end(`<title>Weather form</title><form action="/result"><label>City <input name="city"></label><button>Look up</button></form>`);
});
let siteUrl = "";
let sitePort = 0;
beforeAll(async () => {
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  sitePort = (site.address() as AddressInfo).port;
  siteUrl = `http://127.0.0.1:${sitePort}`;
});
afterAll(async () => {
  site.closeAllConnections();
  await new Promise((r) => site.close(r));
});


describe.skipIf(!chromiumAvailable)("the browser tool in the workbench", () => {
  const session = browserSession("browser-tool");

  it("a browser turn's cards show each step's screenshot; one opens in the Inspector; Save to knowledge; the settings name the browser", async () => {
    const wb = session.use(
      await startWorkbench({
        env: { FETCH_ALLOWLIST: `127.0.0.1:${sitePort}` },
        script: (body) => {
          const done = toolMessages(body);
          if (done.length === 0) return { toolCalls: [{ name: "browser", args: { action: "navigate", url: `${siteUrl}/form` } }] };
          if (done.length === 1) return { toolCalls: [{ name: "browser", args: { action: "type", ref: refOf(done[0], /textbox "City"/), text: "Lyon", submit: true } }] };
          return { content: "It is sunny in Lyon." };
        },
      }),
    );
    const view = await session.open(wb.url);
    const { page } = view;
    await page.getByTestId("composer").fill("weather in Lyon?");
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    const cards = page.locator('[data-testid="tool-card"][data-tool="browser"]');
    await expect.poll(() => cards.count()).toBe(2);
    expect(await cards.nth(0).getByTestId("browser-action").innerText()).toBe("navigate");
    expect(await cards.nth(1).getByTestId("browser-url").innerText()).toBe(`${siteUrl}/result?city=Lyon`);
    const shot = cards.nth(1).getByTestId("browser-screenshot").locator("img");
    await expect.poll(() => shot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1280);
    await cards.nth(1).getByTestId("browser-outline").locator("summary").click();
    expect(await cards.nth(1).getByTestId("browser-outline").innerText()).toContain("Sunny in Lyon");
    await view.shot("browser-cards");

    await cards.nth(1).getByTestId("browser-screenshot").click();
    const picture = page.getByTestId("inspector-picture");
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1280);
    await view.shot("browser-screenshot-inspector");

    await cards.nth(1).getByTestId("browser-save").click();
    const saved = cards.nth(1).getByTestId("browser-saved");
    await saved.waitFor();
    expect(await saved.innerText()).toBe("knowledge/web/127-0-0-1-result-city-lyon.md");
    await access(join(wb.dataRoot, "knowledge/web/127-0-0-1-result-city-lyon.md"));

    // Web search and the browser are set on the Settings page, in the Stage.
    await page.getByTestId("nav-settings").click();
    await page.getByTestId("settings-go-web").click();
    const settings = page.getByTestId("stage-page").getByTestId("web-search-section");
    await settings.scrollIntoViewIfNeeded();
    expect(await settings.getByTestId("web-browser").innerText()).toMatch(/Browser: .*chromium.* · 1 session's browser running/);
    await view.shot("browser-settings");
  });
});
