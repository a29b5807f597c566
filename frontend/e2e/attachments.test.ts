/**
 * Files and images in the composer (issue 39): an image pasted, a CSV dropped, both shown as chips,
 * sent, shown with the turn (a thumbnail) and again after a reload; the CSV added to knowledge and
 * found by search. The model is a scripted OpenAI-compatible server that records what it was sent.
 */
import { describe, expect, it } from "vitest";
import { solidPng } from "../../backend/test-support/images";
import { startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

describe.skipIf(!chromiumAvailable)("attachments in the composer", () => {
  const session = browserSession("attachments");

  it("paste an image, drop a CSV on the Stage: chips with progress and limits, sent, thumbnails in the turn and after a reload, opened in the Inspector, added to knowledge and found", async () => {
    const wb = session.use(await startWorkbench({ script: () => ({ content: "Got the picture and the table." }) }));
    // The default profile takes images, as Test connection would have marked it.
    await fetch(`${wb.url}/api/models/default`, {
      method: "PUT",
      headers: { "content-type": "application/json", origin: wb.url },
      body: JSON.stringify({ base_url: wb.model.baseUrl, model: "scripted", capabilities: { vision: true } }),
    });
    const png = await solidPng(300, 200);
    const view = await session.open(wb.url);
    const { page } = view;

    await page.evaluate((bytes) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], "screenshot.png", { type: "image/png" }));
      document.querySelector("[data-testid=composer]")!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    }, [...png]);
    // Dropped anywhere on the Stage (the conversation), not only on the box.
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(["city,zorblat_index\nParis,41\n"], "cities.csv", { type: "text/csv" }));
      const stage = document.querySelector("[data-testid=stage-scroll]")!;
      stage.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
      stage.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await expect.poll(() => page.locator('[data-testid="attachment-chip"][data-state="ready"]').count()).toBe(2);
    expect(await page.getByTestId("attachment-chip").allInnerTexts()).toEqual([expect.stringContaining("screenshot.png"), expect.stringContaining("cities.csv")]);
    // The image's chip shows it while it is being written about.
    expect(await page.getByTestId("attachment-chip").first().locator("img").count()).toBe(1);
    await view.shot("attachment-chips");

    // A file over the limit is refused in the page, before any byte is sent; it can be removed.
    const uploads: string[] = [];
    page.on("request", (request) => request.method() === "POST" && request.url().includes("/api/attachments") && uploads.push(request.url()));
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(21 * 1024 * 1024)], "huge.bin"));
      document.querySelector("[data-testid=composer]")!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    const refused = page.locator('[data-testid="attachment-chip"][data-state="failed"]');
    expect(await refused.innerText()).toContain("Over the 20.0 MB limit for one file");
    await refused.getByTestId("attachment-remove").click();
    expect(await page.getByTestId("attachment-chip").count()).toBe(2);
    expect(uploads).toEqual([]);

    // A larger file on a slow link shows its progress as it goes.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(["row,value\n" + "a,1\n".repeat(300_000)], "big.csv", { type: "text/csv" }));
      document.querySelector("[data-testid=composer]")!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    const uploading = page.locator('[data-testid="attachment-chip"][data-state="uploading"]');
    await expect.poll(() => uploading.innerText(), { timeout: 10000 }).toMatch(/big\.csv\s+([1-9]\d?)% of 1\.1 MB/);
    await expect.poll(() => uploading.getByTestId("attachment-progress").locator("span").evaluate((bar: HTMLElement) => parseFloat(bar.style.width))).toBeGreaterThan(0);
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await expect.poll(() => page.locator('[data-testid="attachment-chip"][data-state="ready"]').count(), { timeout: 20000 }).toBe(3);
    await page.getByRole("button", { name: "Remove big.csv" }).click();

    await page.getByTestId("composer").fill("what do these show?");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("answer").last().innerText(), { timeout: 10000 }).toContain("Got the picture");
    expect(await page.getByTestId("attachment-chip").count()).toBe(0);
    const sent = JSON.stringify(wb.model.requests.at(-1)!.body.messages.at(-1));
    expect(sent).toMatch(/"image_url":\{"url":"data:image\/(jpeg|png);base64,/);
    expect(sent).toContain("Attached file: cities.csv");

    const thumbnail = page.getByTestId("attachment-thumbnail").first();
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(300);
    await page.reload();
    await page.waitForSelector("html[data-ready='true']");
    await expect.poll(() => page.getByTestId("sent-attachment").count()).toBe(2);
    await expect.poll(() => page.getByTestId("attachment-thumbnail").first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(300);
    await view.shot("attachments-after-reload");

    // Each opens in the Inspector: the image as itself, the CSV as the text the model read.
    await page.getByTestId("open-attachment").first().click();
    await expect.poll(() => page.getByTestId("attachment-image").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(300);
    await page.getByTestId("open-attachment").nth(1).click();
    await expect.poll(() => page.getByTestId("editor-path").innerText()).toMatch(/^attachments\/[\w-]+\/cities\.csv$/);
    await expect.poll(() => page.locator(".monaco-editor .view-lines").innerText()).toContain("zorblat_index");
    await view.shot("attachment-in-inspector");

    // Added to knowledge, it is found by the Knowledge view's search.
    await page.getByTestId("attachment-to-knowledge").click();
    await page.getByTestId("nav-knowledge").click();
    await expect
      .poll(
        async () => {
          await page.getByTestId("knowledge-query").fill("zorblat_index");
          await page.getByTestId("knowledge-query").press("Enter");
          await page.waitForTimeout(300);
          return page.getByTestId("knowledge-hit").allInnerTexts();
        },
        { timeout: 20000 },
      )
      .toContainEqual(expect.stringContaining("knowledge/cities.csv"));
  });
});
