/**
 * Turns outlive the page (issue 26), in a real Chromium against the real backend: a second tab
 * follows a turn live and keeps following when the first tab closes; a reload mid-answer goes on
 * live with no gap and no word twice; while a turn runs the composer queues follow-ups and steers,
 * and Stop gives the queue back.
 */
import type { SessionDetail } from "@mini-openclaw/protocol";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ChatRequestBody, lastMessage, messageText } from "../../backend/test-support/scripted-model-server";
import { postJson, sseEvents, startWorkbench, type Workbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable, launch, openPage, type WatchedPage } from "./browser";
import { checkAndClosePage } from "./page-checks";

const WORDS = Array.from({ length: 120 }, (_, i) => `word${i}`).join(" ");
// ~10 s of streaming: a window a second tab opens in, on a loaded CI machine too.
const slowAnswer = () => ({ content: WORDS, chunkDelayMs: 80 });

const answerText = (page: Page) => page.getByTestId("answer").last().innerText();
const storedFinal = async (wb: Workbench, id: string) => {
  const session = (await (await fetch(`${wb.url}/api/sessions/${id}`)).json()) as SessionDetail;
  const final = session.entries.findLast((e) => e.type === "event" && e.event.type === "final");
  return final?.type === "event" && final.event.type === "final" ? final.event.content : null;
};
const sessionOf = (page: Page) => /session=([A-Za-z0-9_-]+)/.exec(page.url())?.[1] ?? null;

describe.skipIf(!chromiumAvailable)("turns outlive the page", () => {
  let browser: Browser;
  let wb: Workbench | undefined;
  const views: WatchedPage[] = [];

  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => browser?.close());
  afterEach(async (context) => {
    if (context.task.result?.state === "fail") for (const [i, v] of views.entries()) await v.shot(`failed-live-${i}-${context.task.name.slice(0, 30).replace(/\W+/g, "-")}`).catch(() => {});
    for (const view of views.splice(0)) await checkAndClosePage(view);
    await wb?.close();
    wb = undefined;
  });

  it("a second tab shows the answer growing live, and keeps going when the first tab closes", async () => {
    wb = await startWorkbench({ script: slowAnswer });
    const first = await openPage(browser, wb.url);
    views.push(first);
    await first.page.getByTestId("composer").fill("Count for me");
    await first.page.keyboard.press("Enter");
    await expect.poll(() => sessionOf(first.page)).not.toBeNull();
    const id = sessionOf(first.page)!;
    // The new session is in the list while its first turn streams.
    await expect.poll(() => first.page.getByTestId("session-item").count(), { timeout: 5_000 }).toBe(1);
    expect(await first.page.locator('[data-testid="turn"]').last().getAttribute("data-status")).toBe("streaming");

    const second = await openPage(browser, `${wb.url}/#session=${id}`);
    views.push(second);
    await second.page.getByTestId("answer").last().waitFor();
    const early = (await answerText(second.page)).length;
    await expect.poll(async () => (await answerText(second.page)).length).toBeGreaterThan(early);
    expect(await second.page.locator('[data-testid="turn"]').last().getAttribute("data-status")).toBe("streaming");

    // The tab that started the turn goes; the turn and the second tab go on.
    await checkAndClosePage(views.shift());
    const afterClose = (await answerText(second.page)).length;
    await expect.poll(async () => (await answerText(second.page)).length).toBeGreaterThan(afterClose);
    await second.page.locator('[data-testid="turn"][data-status="done"]').waitFor({ timeout: 30_000 });
    expect(await answerText(second.page)).toBe(WORDS);
    expect(await storedFinal(wb, id)).toBe(WORDS);
  });

  it("a turn another client started before this page's event stream opened is in the list while it streams", async () => {
    wb = await startWorkbench({ script: slowAnswer });
    const view = await openPage(browser, wb.url);
    views.push(view);
    const { page } = view;
    // A slow machine: the page has read its lists before its /api/events stream is open.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/events", async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    await page.waitForSelector("html[data-ready='true']");
    await expect.poll(() => page.getByTestId("session-item").count()).toBe(0);
    // Meanwhile another client starts a turn (~10 s long); its start is announced to no one this page hears.
    const other = await postJson(`${wb.url}/api/chat`, { message: "Count for me" });
    const events = sseEvents(other);
    for (let next = await events.next(); !next.done && next.value.type !== "session"; next = await events.next());
    release();
    // The stream, once open, has what the page read before it listened read again.
    await expect.poll(() => page.getByTestId("session-item").count(), { timeout: 5_000 }).toBe(1);
    // ...while that turn still streams (its end would have the list read again anyway).
    expect((await events.next()).done).toBe(false);
    await events.return(undefined);
  });

  it("a reload mid-answer shows what was written, goes on live within a second, and ends equal to the stored answer", async () => {
    wb = await startWorkbench({ script: slowAnswer });
    const view = await openPage(browser, wb.url);
    views.push(view);
    const { page } = view;
    await page.getByTestId("composer").fill("Count again");
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await page.getByTestId("answer").count()) > 0 && (await answerText(page)).split(" ").length > 10).toBe(true);
    const id = sessionOf(page)!;
    await page.reload();
    await page.waitForSelector("html[data-ready='true']");
    const t0 = Date.now();
    await page.getByTestId("answer").last().waitFor();
    const shown = (await answerText(page)).split(" ").length;
    expect(shown).toBeGreaterThan(10);
    await expect.poll(async () => (await answerText(page)).split(" ").length, { timeout: 1000 }).toBeGreaterThan(shown);
    expect(Date.now() - t0).toBeLessThan(2000);
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor({ timeout: 30_000 });
    // No gap, no word twice: exactly the stored answer.
    expect(await answerText(page)).toBe(WORDS);
    expect(await storedFinal(wb, id)).toBe(WORDS);
  });

  it("while a turn runs: Enter queues a follow-up, Steer goes into the turn, Stop gives the queue back", async () => {
    const script = (body: ChatRequestBody) => {
      const last = messageText(lastMessage(body).content);
      if (last.startsWith("steer:")) return { content: `Steered by "${last}".` };
      if (last === "go long") return { content: WORDS, chunkDelayMs: 40 };
      return { content: WORDS, chunkDelayMs: 60 };
    };
    wb = await startWorkbench({ script });
    const view = await openPage(browser, wb.url);
    views.push(view);
    const { page } = view;
    const composer = page.getByTestId("composer");
    await composer.fill("go long");
    await page.keyboard.press("Enter");
    await page.getByTestId("answer").last().waitFor();

    // Steer: the message shows in the turn, and the model's answer to it ends the turn.
    await composer.fill("steer: shorter please");
    await page.getByTestId("steer").click();
    await page.getByTestId("steer-message").waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId("answer").last().innerText(), { timeout: 15_000 }).toContain('Steered by "steer: shorter please"');
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();

    // A new turn; Enter while it runs queues follow-ups, shown under the composer.
    await composer.fill("a slow one");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator('[data-testid="turn"]').last().getAttribute("data-status")).toBe("streaming");
    await composer.fill("then this");
    await page.keyboard.press("Enter");
    await composer.fill("and that");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("queue-item").allInnerTexts()).toEqual([expect.stringContaining("then this"), expect.stringContaining("and that")]);
    await page.getByTestId("queue-remove").last().click();
    await expect.poll(() => page.getByTestId("queue-item").count()).toBe(1);

    // Stop: the turn ends as stopped and the queued message is back in the composer.
    await page.getByTestId("stop").click();
    await expect.poll(() => page.locator('[data-testid="turn"]').last().getAttribute("data-status")).toBe("stopped");
    await expect.poll(() => composer.inputValue()).toBe("then this");
    expect(await page.getByTestId("queue-item").count()).toBe(0);
    await view.shot("live-turns-stopped");
  });
});
