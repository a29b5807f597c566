/**
 * The panes at the widths people use (issue 31), in a real Chromium against the real backend: the
 * Sidebar and Inspector collapse to a rail and back, the choice survives a reload, the Stage keeps at
 * least 480 px and the composer's placeholder is whole, the Inspector starts collapsed at 1024 px,
 * and under 800 px the Sidebar is a drawer over the Stage.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

const width = (page: Page, testId: string) => page.getByTestId(testId).evaluate((el) => el.getBoundingClientRect().width);
/** Whether the composer shows its whole placeholder (the text fits the box's inner width). */
const placeholderFits = (page: Page) =>
  page.getByTestId("composer").evaluate((el) => {
    const box = el as HTMLTextAreaElement;
    const style = getComputedStyle(box);
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.font = `${style.fontSize} ${style.fontFamily}`;
    const inner = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return ctx.measureText(box.placeholder).width <= inner;
  });

describe.skipIf(!chromiumAvailable)("the panes", () => {
  const session = browserSession("panes");

  it("at 1440 px: both panes collapse to a rail and expand; the choice persists across a reload; the Stage takes the room", async () => {
    const wb = session.use(await startWorkbench({ script: [] }));
    const view = await session.open(wb.url);
    const { page } = view;
    const stageBefore = await width(page, "stage");
    await page.getByRole("button", { name: "Collapse sidebar" }).click();
    await page.getByRole("button", { name: "Collapse inspector" }).click();
    await page.getByTestId("sidebar-rail").waitFor();
    await page.getByTestId("inspector-rail").waitFor();
    expect(await width(page, "sidebar-rail")).toBeLessThanOrEqual(64);
    expect(await width(page, "inspector-rail")).toBeLessThanOrEqual(64);
    expect(await width(page, "stage")).toBeGreaterThan(stageBefore + 400);
    await page.reload();
    await page.waitForSelector("html[data-ready='true']");
    await page.getByTestId("inspector-rail").waitFor();
    expect(await page.getByTestId("sidebar-rail").isVisible()).toBe(true);
    await page.getByRole("button", { name: "Expand sidebar" }).click();
    await page.getByRole("button", { name: "Expand inspector" }).click();
    await page.getByTestId("sidebar").waitFor();
    expect(await width(page, "sidebar")).toBeGreaterThan(150);
    expect(await page.getByTestId("inspector-rail").count()).toBe(0);
  });

  it("at 1024 px the Inspector starts collapsed; at 900 px the Stage keeps 480 px and the placeholder is whole", async () => {
    const wb = session.use(await startWorkbench({ script: [] }));
    for (const size of [{ width: 1024, height: 768 }, { width: 900, height: 700 }]) {
      const view = await session.open(wb.url, size);
      const { page } = view;
      await page.getByTestId("inspector-rail").waitFor();
      expect(await width(page, "stage")).toBeGreaterThanOrEqual(480);
      expect(await placeholderFits(page)).toBe(true);
      // Opening a file brings the Inspector back, and the Stage still keeps its room.
      await page.getByTestId("nav-memory").click();
      await page.getByTestId("inspector").waitFor();
      expect(await width(page, "stage")).toBeGreaterThanOrEqual(480);
      expect(await placeholderFits(page)).toBe(true);
    }
  });

  it("a layout of 1440 px, then the window made 900 px, a reload, and each pane expanded: a side pane gives way (the one not just opened); the Stage keeps 480 px and the composer works at every step", async () => {
    const wb = session.use(await startWorkbench({ script: () => ({ content: "Still usable." }) }));
    const view = await session.open(wb.url, { width: 1440, height: 900 });
    const { page } = view;
    await page.getByTestId("inspector").waitFor();
    await page.getByTestId("nav-memory").click();
    expect(await width(page, "stage")).toBeGreaterThanOrEqual(479);
    await page.setViewportSize({ width: 900, height: 800 });
    await expect.poll(() => width(page, "stage")).toBeGreaterThanOrEqual(479);
    expect(await placeholderFits(page)).toBe(true);
    expect(await page.getByTestId("inspector-rail").count()).toBe(1);
    await page.getByTestId("composer").fill("still there?");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("answer").last().innerText()).toContain("Still usable.");

    // A reload at 900 px: the sizes saved at 1440 are fitted to this window, not applied as they were.
    await page.reload();
    await page.locator("html[data-ready=true]").waitFor();
    await page.getByTestId("inspector-rail").waitFor();
    expect(await width(page, "stage")).toBeGreaterThanOrEqual(479);
    expect(await width(page, "sidebar")).toBeGreaterThanOrEqual(199);
    expect(await placeholderFits(page)).toBe(true);

    // Expand the Inspector, then the Sidebar from its rail: each comes back no wider than leaves the Stage its least width.
    await page.getByRole("button", { name: "Expand inspector" }).click();
    await expect.poll(() => page.getByTestId("inspector-rail").count()).toBe(0);
    await expect.poll(() => width(page, "stage")).toBeGreaterThanOrEqual(479);
    expect(await placeholderFits(page)).toBe(true);
    await page.getByTestId("sidebar").getByRole("button", { name: "Collapse sidebar" }).click();
    await page.getByTestId("sidebar-rail").waitFor();
    await page.getByRole("button", { name: "Expand sidebar" }).click();
    await expect.poll(() => page.getByTestId("sidebar-rail").count()).toBe(0);
    await expect.poll(() => width(page, "stage")).toBeGreaterThanOrEqual(479);
    expect(await placeholderFits(page)).toBe(true);
    await page.getByTestId("composer").fill("and after the reload?");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("answer").count()).toBe(2);
  });

  it("the widths the user dragged to come back when the window grows again, after any sequence of resizes, collapses, the drawer and reloads", async () => {
    const wb = session.use(await startWorkbench({ script: [] }));
    const view = await session.open(wb.url, { width: 1440, height: 900 });
    const { page } = view;
    await page.getByTestId("inspector").waitFor();
    const separators = page.locator('[role="separator"]');
    const drag = async (index: number, by: number) => {
      const box = (await separators.nth(index).boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + by / 2, box.y + box.height / 2, { steps: 4 });
      await page.mouse.move(box.x + box.width / 2 + by, box.y + box.height / 2, { steps: 4 });
      await page.mouse.up();
    };
    // The Sidebar dragged 60 px wider, the Inspector 80 px wider.
    const sidebar0 = await width(page, "sidebar");
    const inspector0 = await width(page, "inspector");
    await drag(0, 60);
    await drag(1, -80);
    await expect.poll(() => width(page, "sidebar")).toBeCloseTo(sidebar0 + 60, -1);
    await expect.poll(() => width(page, "inspector")).toBeCloseTo(inspector0 + 80, -1);
    const sidebar = await width(page, "sidebar");
    const inspector = await width(page, "inspector");

    // 1440 → 900 → 1440: the panes narrow to leave the Stage its 480 px, then come back as wide as they were made.
    await page.setViewportSize({ width: 900, height: 800 });
    await expect.poll(() => width(page, "stage")).toBeGreaterThanOrEqual(479);
    expect(await width(page, "inspector")).toBeLessThan(inspector - 100);
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect.poll(() => page.getByTestId("inspector-rail").count()).toBe(0);
    await expect.poll(async () => Math.abs((await width(page, "inspector")) - inspector)).toBeLessThanOrEqual(2);
    expect(Math.abs((await width(page, "sidebar")) - sidebar)).toBeLessThanOrEqual(2);

    // Both collapsed, the 700 px drawer opened and closed, a reload, back to 1440: collapsed as left; each expands to its width.
    await page.getByTestId("sidebar").getByRole("button", { name: "Collapse sidebar" }).click();
    await page.getByRole("button", { name: "Collapse inspector" }).click();
    await page.setViewportSize({ width: 700, height: 800 });
    await page.getByRole("button", { name: "Expand sidebar" }).click();
    await page.getByTestId("sidebar-drawer").getByRole("button", { name: "Collapse sidebar" }).click();
    await page.reload();
    await page.waitForSelector("html[data-ready='true']");
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId("inspector-rail").waitFor();
    await expect.poll(() => page.getByTestId("sidebar-rail").isVisible()).toBe(true);
    await page.getByRole("button", { name: "Expand sidebar" }).click();
    await page.getByRole("button", { name: "Expand inspector" }).click();
    await expect.poll(async () => Math.abs((await width(page, "sidebar")) - sidebar)).toBeLessThanOrEqual(2);
    await expect.poll(async () => Math.abs((await width(page, "inspector")) - inspector)).toBeLessThanOrEqual(2);
    await view.shot("panes-widths-back");
  });

  it("under 800 px the Sidebar is a drawer over the Stage, opened by Expand sidebar; the Stage keeps the width", async () => {
    const wb = session.use(await startWorkbench({ script: [] }));
    const view = await session.open(wb.url, { width: 760, height: 700 });
    const { page } = view;
    await page.getByTestId("sidebar-rail").waitFor();
    const stage = await width(page, "stage");
    expect(stage).toBeGreaterThanOrEqual(480);
    await page.getByRole("button", { name: "Expand sidebar" }).click();
    const drawer = page.getByTestId("sidebar-drawer");
    await drawer.getByTestId("sidebar").waitFor();
    expect(await width(page, "stage")).toBe(stage);
    await drawer.getByRole("button", { name: "Collapse sidebar" }).click();
    expect(await drawer.count()).toBe(0);
    expect(await placeholderFits(page)).toBe(true);
  });
});
