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

  it("paste an image and drop a CSV: chips, sent with the message, thumbnails in the turn and after a reload, the CSV added to knowledge", async () => {
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
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(["city,zorblat_index\nParis,41\n"], "cities.csv", { type: "text/csv" }));
      const box = document.querySelector("[data-testid=composer-box]")!;
      box.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
      box.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await expect.poll(() => page.locator('[data-testid="attachment-chip"][data-state="ready"]').count()).toBe(2);
    expect(await page.getByTestId("attachment-chip").allInnerTexts()).toEqual([expect.stringContaining("screenshot.png"), expect.stringContaining("cities.csv")]);
    await view.shot("attachment-chips");

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

    await page.getByTestId("attachment-to-knowledge").click();
    await expect
      .poll(async () => ((await (await fetch(`${wb.url}/api/knowledge/search?q=zorblat_index&k=3`)).json()) as { results: Array<{ source: string }> }).results.map((r) => r.source), { timeout: 20000 })
      .toContain("knowledge/cities.csv");
  });
});
