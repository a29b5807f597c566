/**
 * The keyboard (issue 31), in a real Chromium against the real backend: Esc in the composer stops a
 * streaming answer, Ctrl+K opens the command palette (a session by its title, Enter opens it), and
 * `?` outside a text field lists the shortcuts.
 */
import { describe, expect, it } from "vitest";
import { startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

const WORDS = Array.from({ length: 300 }, (_, i) => `w${i}`).join(" ");

describe.skipIf(!chromiumAvailable)("the keyboard", () => {
  const session = browserSession("keys");

  it("Esc in the composer stops the streaming answer within a second", async () => {
    const wb = session.use(await startWorkbench({ script: () => ({ content: WORDS, chunkDelayMs: 50 }) }));
    const view = await session.open(wb.url);
    const { page } = view;
    const composer = page.getByTestId("composer");
    await composer.fill("talk for a long time");
    await page.keyboard.press("Enter");
    await page.getByTestId("answer").waitFor();
    await composer.focus();
    const pressed = Date.now();
    await page.keyboard.press("Escape");
    await page.locator('[data-testid="turn"][data-status="stopped"]').waitFor({ timeout: 5_000 });
    expect(Date.now() - pressed).toBeLessThan(1_000);
  });

  it("Ctrl+K opens the palette: a session's title and Enter open it; ? lists the shortcuts", async () => {
    const wb = session.use(await startWorkbench({ script: (body) => ({ content: `Answer to ${body.messages.length}` }) }));
    const view = await session.open(wb.url);
    const { page } = view;
    for (const message of ["Plan the rose garden", "Fix the bicycle brakes"]) {
      await page.getByTestId("composer").fill(message);
      await page.keyboard.press("Enter");
      await expect.poll(() => page.locator('[data-testid="turn"][data-status="done"]').count()).toBeGreaterThan(0);
      await page.getByTestId("new-session").click();
    }
    await expect.poll(() => page.getByTestId("session-item").count()).toBe(2);
    await page.locator("body").click({ position: { x: 600, y: 300 } });
    await page.keyboard.press("Control+k");
    const input = page.getByTestId("palette-input");
    await input.waitFor();
    await input.fill("rose");
    expect(await page.getByTestId("palette-item").allInnerTexts()).toEqual([expect.stringContaining("Plan the rose garden")]);
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("pane-title").first().innerText()).toContain("Plan the rose garden");
    expect(await page.getByTestId("command-palette").isVisible()).toBe(false);

    // Panes and theme from the palette too.
    for (const [query, check] of [
      ["toggle the inspector", () => page.getByTestId("inspector-rail").isVisible()],
      ["theme: dark", () => page.evaluate(() => document.documentElement.classList.contains("dark"))],
    ] as const) {
      await page.keyboard.press("Control+k");
      await page.getByTestId("palette-input").fill(query);
      await page.keyboard.press("Enter");
      await expect.poll(check).toBe(true);
    }

    await page.locator("body").click({ position: { x: 600, y: 300 } });
    await page.keyboard.press("?");
    const list = page.getByTestId("shortcuts");
    await list.waitFor();
    const text = await list.innerText();
    expect(text).toContain("Ctrl/⌘ + K");
    expect(text).toContain("Esc");
    // In the message box, `?` is just a character.
    await page.keyboard.press("Escape");
    await page.getByTestId("composer").fill("why?");
    expect(await page.getByTestId("shortcuts").isVisible()).toBe(false);
  });
});
