/**
 * A call waiting for approval is seen from anywhere (issue 56, item 5), in a real Chromium against the
 * real backend with the sandbox: a second tab, opened on a new session, counts it on the Approvals
 * button, marks its session's row and its own title; approved from there, every mark goes.
 */
import { describe, expect, it } from "vitest";
import { callsThenAnswer } from "../../backend/test-support/mcp-harness";
import { sandboxExpected } from "../../backend/test-support/tool-harness";
import { startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

describe.skipIf(!chromiumAvailable || !sandboxExpected().available)("a pending approval, from another tab", () => {
  const session = browserSession("attention");

  it("is counted on Approvals, marked on its session and in the tab's title; approved from there, the marks go", async () => {
    const wb = session.use(await startWorkbench({ env: { APPROVALS: "on" }, script: callsThenAnswer([{ name: "terminal", args: { command: "touch workspace/asked" } }]) }));
    const first = await session.open(wb.url);
    await first.page.getByTestId("composer").fill("make the file");
    await first.page.keyboard.press("Enter");
    await first.page.getByTestId("approval-card").waitFor();

    const second = await session.open(wb.url);
    const { page } = second;
    const badge = page.getByTestId("approvals-badge");
    await badge.waitFor();
    expect(await badge.innerText()).toBe("1");
    expect(await badge.getAttribute("aria-label")).toBe("1 call waits for your approval");
    await expect.poll(() => page.title()).toMatch(/^\(1\) /);
    // One <title>, the page's: a second one put before it by a late hydration would hide the count.
    expect(await page.locator("title").count()).toBe(1);
    const row = page.locator('[data-testid="session-item"]').filter({ has: page.getByTestId("session-waiting") });
    await expect.poll(() => row.count()).toBe(1);
    await second.shot("attention-second-tab");

    await page.getByTestId("nav-approvals").click();
    await page.getByTestId("approval-approve").click();
    await expect.poll(() => badge.count()).toBe(0);
    await expect.poll(() => page.title()).not.toMatch(/^\(/);
    await page.getByTestId("nav-chat").click();
    expect(await page.getByTestId("session-waiting").count()).toBe(0);
    await expect.poll(() => first.page.getByTestId("approvals-badge").count()).toBe(0);
  });
});
