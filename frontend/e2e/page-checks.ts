import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { launch, openPage, type WatchedPage } from "./browser";

/** After each test: nothing left 127.0.0.1 and the console stayed clean; then the page's context is closed. */
export async function checkAndClosePage(view: WatchedPage | undefined): Promise<void> {
  expect(view?.external ?? [], "requests that left 127.0.0.1").toEqual([]);
  expect(view?.errors ?? [], "browser console errors").toEqual([]);
  await view?.page.context().close();
}

/**
 * One browser for a describe block, and after each test: a screenshot of every page when it failed,
 * the checks above on every page, and the workbench closed. `open` keeps the page for those checks;
 * `use` registers the workbench the test started.
 */
export function browserSession(shotPrefix: string) {
  let browser: Browser | undefined;
  let wb: { close(): Promise<void> } | undefined;
  const views: WatchedPage[] = [];
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => browser?.close());
  afterEach(async (context) => {
    if (context.task.result?.state === "fail") for (const v of views) await v.shot(`failed-${shotPrefix}-${context.task.name.slice(0, 30).replace(/\W+/g, "-")}`).catch(() => {});
    for (const view of views.splice(0)) await checkAndClosePage(view);
    await wb?.close();
    wb = undefined;
  });
  return {
    use<T extends { close(): Promise<void> }>(workbench: T): T {
      wb = workbench;
      return workbench;
    },
    async open(...args: Parameters<typeof openPage> extends [Browser, ...infer Rest] ? Rest : never): Promise<WatchedPage> {
      const view = await openPage(browser!, ...args);
      views.push(view);
      return view;
    },
  };
}

/** Serious and critical violations, each with where it was found. */
export async function violations(page: Page): Promise<string[]> {
  // Monaco included: what it draws (line numbers, the text) is read as the rest of the page is.
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
}
/** Elements of ours with a native `title` tooltip (Monaco's own are left to it). */
export const titled = (page: Page) => page.evaluate(() => Array.from(document.querySelectorAll("[title]")).filter((el) => !el.closest(".monaco-editor, .monaco-diff-editor")).map((el) => el.outerHTML.slice(0, 120)));
