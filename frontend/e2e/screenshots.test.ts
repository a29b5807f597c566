/**
 * Every view at the widths people use (issue 56): 1440, 1280, 900 and 700 px, light and dark, English
 * and Chinese, in a real Chromium against the real backend with a recorded weather turn, saved to
 * `test-results/screenshots/view-*.png` to be looked at. Each picture is also checked for what a person
 * would see first go wrong: nothing wider than the window (no sideways scroll), and the view's own
 * content shown.
 */
import { describe, expect, it } from "vitest";
import { weatherScript } from "../../backend/test-support/weather-script";
import { chat, sessionIdOf, startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

const WIDTHS = [1440, 1280, 900, 700];
const VIEWS = ["chat", "tasks", "memory", "skills", "knowledge", "agents", "approvals", "mcp", "settings"];

describe.skipIf(!chromiumAvailable)("every view, at four widths, light and dark, in English and Chinese", () => {
  const session = browserSession("screenshots");

  for (const locale of ["en-US", "zh-CN"] as const) {
    it(`${locale}: each view's picture at 1440, 1280, 900 and 700 px, light and dark; nothing wider than the window`, async () => {
      const wb = session.use(await startWorkbench({ script: weatherScript }));
      // The scripted model answers the weather question (thought, skill, tool card, answer) in English only.
      const id = sessionIdOf(await chat(wb, "What's the weather in Paris?"));
      for (const width of WIDTHS) {
        for (const scheme of ["light", "dark"] as const) {
          const view = await session.open(`${wb.url}/#session=${id}`, { width, height: 860 }, scheme, false, locale);
          const { page } = view;
          await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
          for (const name of VIEWS) {
            // Under 800 px the Sidebar is a drawer: opened for each view, as a person there would.
            if (width < 800 && (await page.getByTestId("sidebar-drawer").count()) === 0) await page.getByTestId("sidebar-rail").getByRole("button").click();
            await page.getByTestId(`nav-${name}`).click();
            await page.waitForTimeout(250);
            expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width} px is wider than the window`).toBeLessThanOrEqual(width);
            await view.shot(`view-${width}-${scheme}-${locale}-${name}`);
          }
          // Its console and requests are checked after the test; its memory is let go now.
          await page.context().close();
        }
      }
    }, 300_000);
  }
});
