/**
 * Views that need room open as pages in the Stage (issue 56, item 2): Tasks with its form and runs,
 * Knowledge with its documents and query, Settings with the models, web search and hooks. The
 * Sidebar lists (tasks, documents, sections) and the Stage shows; back to the chat, the conversation
 * is as it was (its draft, where it was scrolled to); opening a session gives the Stage back. Measured in pixels at 1280 px.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { chat, postJson, sessionIdOf, startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

/** Waits a loaded machine can take (the lists are read from the server after a click). */
const POLL = { timeout: 5000 };
const box = (page: Page, selector: string) => page.locator(selector).first().evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
/** Whether an element is within the window's height (scrolled to). */
const inView = (page: Page, selector: string) => page.locator(selector).first().evaluate((el) => {
  const r = el.getBoundingClientRect();
  return r.top >= 0 && r.top < window.innerHeight;
});

describe.skipIf(!chromiumAvailable)("pages in the Stage", () => {
  const session = browserSession("stage-pages");

  it("Tasks, Knowledge and Settings take the Stage at 1280 px, the Sidebar lists, a session gives the Stage back", async () => {
    const wb = session.use(await startWorkbench({ script: () => ({ content: "Noted." }) }));
    const origin = { headers: { origin: wb.url } };
    for (let i = 1; i <= 12; i++) {
      const made = await postJson(`${wb.url}/api/tasks`, { name: `Report ${i}`, prompt: "Sum up the day.", schedule: { kind: "every", seconds: 3600 * i }, enabled: true }, origin);
      expect(made.status).toBe(201);
    }
    const id = sessionIdOf(await chat(wb, "Remember the plants"));
    for (let i = 0; i < 11; i++) await chat(wb, `And the shelf ${i}`, id); // longer than the window: it scrolls
    const view = await session.open(`${wb.url}/#session=${id}`, { width: 1280, height: 800 });
    const { page } = view;
    await page.locator('[data-testid="turn"][data-status="done"]').last().waitFor();
    await page.getByTestId("composer").fill("a draft kept behind the page");
    const scroll = () => page.getByTestId("stage-scroll").evaluate((el) => ({ top: Math.round(el.scrollTop), bottom: Math.round(el.scrollHeight - el.clientHeight) }));
    await expect.poll(async () => { const s = await scroll(); return s.bottom > 200 && s.top === s.bottom; }, POLL).toBe(true);
    // The reader scrolled up to an earlier turn (halfway).
    await page.getByTestId("stage-scroll").evaluate((el) => el.scrollTo({ top: Math.round((el.scrollHeight - el.clientHeight) / 2), behavior: "instant" }));
    await page.waitForTimeout(500);
    const reading = await scroll();
    expect(reading.top).toBeLessThan(reading.bottom - 100);

    // Tasks: the page has the Stage's width, the form its room; the Sidebar lists the tasks.
    await page.getByTestId("nav-tasks").click();
    const tasksPage = page.locator('[data-testid="stage-page"][data-page="tasks"]');
    await tasksPage.waitFor();
    expect(await page.getByTestId("stage").isVisible()).toBe(false);
    expect((await box(page, '[data-testid="stage-page"]')).width).toBeGreaterThanOrEqual(480);
    expect(await page.getByTestId("sidebar").getByTestId("task-card").count()).toBe(0);
    await expect.poll(() => page.getByTestId("task-list-row").count(), POLL).toBe(13); // the heartbeat and 12 tasks
    await tasksPage.getByTestId("task-new").click();
    const form = await box(page, '[data-testid="stage-page"] form');
    expect(form.width).toBeGreaterThanOrEqual(440); // in the 250 px Sidebar it was cut ("Session's / d")
    await tasksPage.getByRole("button", { name: "Cancel" }).click();
    // A task in the list goes to its card on the page.
    const last = page.getByTestId("task-list-row").last();
    const lastId = await last.getAttribute("data-task");
    expect(await inView(page, `[data-anchor="task-${lastId}"]`)).toBe(false);
    await last.click();
    await expect.poll(() => inView(page, `[data-anchor="task-${lastId}"]`), POLL).toBe(true);
    await view.shot("tasks-page");

    // Back to the chat: the conversation and the draft as they were.
    await page.getByTestId("stage-page-close").click();
    await page.getByTestId("stage").waitFor();
    expect(await page.getByTestId("composer").inputValue()).toBe("a draft kept behind the page");
    expect(await scroll()).toEqual(reading); // where the reader was
    expect(await page.getByTestId("answer").last().innerText()).toContain("Noted.");

    // Knowledge: documents and the query on the page, its header on one line; the Sidebar lists the documents.
    await page.getByTestId("nav-knowledge").click();
    const knowledgePage = page.locator('[data-testid="stage-page"][data-page="knowledge"]');
    await knowledgePage.getByTestId("knowledge-view").waitFor();
    expect((await box(page, '[data-testid="stage-page"] [data-testid="knowledge-summary"]')).height).toBeLessThan(24);
    await page.getByTestId("knowledge-list").waitFor();
    expect(await page.getByTestId("sidebar").getByTestId("knowledge-view").count()).toBe(0);
    await view.shot("knowledge-page");

    // Settings: models, web search and hooks, each reached from the Sidebar's list.
    await page.getByTestId("nav-settings").click();
    const settingsPage = page.locator('[data-testid="stage-page"][data-page="settings"]');
    await settingsPage.getByTestId("default-profile-form").waitFor();
    await settingsPage.getByTestId("web-search-section").waitFor();
    await settingsPage.getByTestId("hooks-view").waitFor();
    await page.getByTestId("settings-go-hooks").click();
    await expect.poll(() => inView(page, '[data-anchor="hooks"]'), POLL).toBe(true);
    await view.shot("settings-page");

    // Memory goes with the conversation: the Stage comes back.
    await page.getByTestId("nav-memory").click();
    await page.getByTestId("stage").waitFor();
    expect(await page.getByTestId("stage-page").count()).toBe(0);

    // A session opened while a page shows gives the Stage back.
    await page.getByTestId("nav-tasks").click();
    await page.getByTestId("stage-page").waitFor();
    await page.getByTestId("nav-chat").click();
    await expect.poll(() => page.getByTestId("stage-page").count(), POLL).toBe(0);
    await page.getByTestId("nav-knowledge").click();
    await page.getByTestId("stage-page").waitFor();
    await page.keyboard.press("Control+k");
    await page.getByTestId("palette-input").fill("New chat");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("stage-page").count(), POLL).toBe(0);
    expect(await page.getByTestId("stage").isVisible()).toBe(true);
  });
});
