/**
 * Accessibility (issue 31) in a real Chromium against the real backend: axe-core finds no serious or
 * critical violation in any view (and with a turn, the Inspector's tabs and the palette open); no
 * control of ours uses a native `title` tooltip; the tooltip layer shows on hover and on keyboard focus.
 */
import { describe, expect, it } from "vitest";
import { callsThenAnswer } from "../../backend/test-support/mcp-harness";
import { startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession, titled, violations } from "./page-checks";

describe.skipIf(!chromiumAvailable)("accessibility", () => {
  const session = browserSession("a11y");

  for (const [scheme, locale] of [["light", "en-US"], ["dark", "en-US"], ["light", "zh-CN"], ["dark", "zh-CN"]] as const) it(`${scheme}, ${locale}: axe-core finds nothing serious or critical in any view, Monaco included, with a turn, the Inspector's tabs and the palette; no title tooltips`, async () => {
    const wb = session.use(await startWorkbench({ script: callsThenAnswer([{ name: "read_file", args: { path: "memory/MEMORY.md" } }]) }));
    // The system's preference decides while the Theme control says System (the default); the browser's language, the UI's.
    const view = await session.open(wb.url, undefined, scheme, false, locale);
    const { page } = view;
    await page.getByTestId("composer").fill("read my memory");
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(scheme === "dark");
    await page.getByTestId("nav-memory").click();
    await page.locator(".monaco-editor").first().waitFor();
    expect(await page.locator(".monaco-editor").first().getAttribute("class")).toContain(scheme === "dark" ? "vs-dark" : "vs");
    const found: Record<string, string[]> = {};
    for (const nav of ["chat", "tasks", "memory", "skills", "knowledge", "agents", "approvals", "mcp", "settings"]) {
      await page.getByTestId(`nav-${nav}`).click();
      await page.waitForTimeout(300);
      found[nav] = await violations(page);
    }
    for (const tab of ["prompt", "changes", "files"]) {
      await page.getByTestId(`tab-${tab}`).click();
      await page.waitForTimeout(300);
      found[`inspector ${tab}`] = await violations(page);
    }
    expect(await titled(page)).toEqual([]);
    await page.keyboard.press("Control+k");
    await page.getByTestId("palette-input").waitFor();
    found.palette = await violations(page);
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
  });

  it("the Theme control picks Dark over a light system, and the choice persists across a reload", async () => {
    const wb = session.use(await startWorkbench({ script: [] }));
    const view = await session.open(wb.url, undefined, "light");
    const { page } = view;
    const dark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
    expect(await dark()).toBe(false);
    await page.getByLabel("Theme").selectOption("dark");
    await expect.poll(dark).toBe(true);
    await page.reload();
    await page.waitForSelector("html[data-ready='true']");
    await expect.poll(dark).toBe(true);
    expect(await page.getByLabel("Theme").inputValue()).toBe("dark");
    await page.getByLabel("Theme").selectOption("system");
    await expect.poll(dark).toBe(false);
  });

  it("tooltips show on hover and on keyboard focus, described to assistive technology", async () => {
    const wb = session.use(await startWorkbench({ script: [] }));
    const view = await session.open(wb.url);
    const { page } = view;
    const importButton = page.getByTestId("session-import");
    await importButton.hover();
    const tip = page.getByRole("tooltip");
    await tip.waitFor();
    expect(await tip.innerText()).toBe("Import a session exported as JSON");
    expect(await importButton.getAttribute("aria-describedby")).toBe(await tip.getAttribute("id"));
    await page.mouse.move(700, 400);
    await page.keyboard.press("Escape");
    await importButton.focus();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Shift+Tab");
    await tip.waitFor();
    expect(await tip.innerText()).toBe("Import a session exported as JSON");
  });
});
