/**
 * What a newcomer tripped on (issue 41), each fixed and tried in a real browser: "Create MCP.json"
 * makes the file it opens; answers and code blocks have Copy; an export is named after its session.
 */
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

const ANSWER = "Here is the plan.\n\n```python\nprint('pack for Lyon')\n```\n";

describe.skipIf(!chromiumAvailable)("what a newcomer tripped on", () => {
  const session = browserSession("newcomer");

  it("Create MCP.json makes the file and opens it, without an error; Edit opens it again; mistakes in it and in APPROVALS.json are marked as typed", async () => {
    const wb = session.use(await startWorkbench());
    const view = await session.open(wb.url);
    const { page } = view;
    await page.getByTestId("nav-mcp").click();
    const button = page.getByTestId("edit-mcp");
    expect(await button.innerText()).toContain("Create MCP.json");
    await button.click();
    await expect.poll(() => page.getByTestId("editor-path").innerText()).toBe("MCP.json");
    await expect.poll(() => page.locator(".monaco-editor .view-lines").innerText()).toContain("mcpServers");
    expect(await page.getByTestId("editor-error").count()).toBe(0);
    expect(JSON.parse(await readFile(join(wb.dataRoot, "MCP.json"), "utf8"))).toEqual({ mcpServers: {} });
    await expect.poll(() => button.innerText()).toContain("Edit MCP.json");
    await button.click();
    await expect.poll(() => page.locator(".monaco-editor .view-lines").innerText()).toContain("mcpServers");
    expect(await page.getByTestId("editor-error").count()).toBe(0);

    // A mistake is marked as it is typed (the JSON language service runs), and nothing is logged.
    await page.locator(".monaco-editor .view-lines").click();
    await page.keyboard.press("Control+Home");
    await page.keyboard.insertText("xx");
    await expect.poll(() => page.locator(".monaco-editor .squiggly-error").count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(view.errors).toEqual([]);

    // APPROVALS.json is checked against the server's own schema: valid JSON of the wrong shape is marked too.
    await page.getByTestId("nav-approvals").click();
    await page.getByTestId("file-item").filter({ hasText: "APPROVALS.json" }).click();
    await expect.poll(() => page.getByTestId("editor-path").innerText()).toBe("APPROVALS.json");
    await expect.poll(() => page.locator(".monaco-editor .view-lines").innerText()).toContain("timeout_seconds");
    expect(await page.locator(".monaco-editor .squiggly-error").count()).toBe(0);
    await page.locator(".monaco-editor .view-lines").click();
    await page.keyboard.press("Control+A");
    await page.keyboard.insertText('{ "version": 1, "timeout_seconds": "soon" }');
    await expect.poll(() => page.locator(".monaco-editor .squiggly-error").count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(view.errors).toEqual([]);
  });

  it("Copy on an answer and on its code block; an export named after the session's title", async () => {
    const wb = session.use(await startWorkbench({ script: () => ({ content: ANSWER }) }));
    const view = await session.open(wb.url);
    const { page } = view;
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: wb.url });
    await page.getByTestId("composer").fill("Plan the trip to Lyon");
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();

    await page.getByTestId("copy-code").click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe("print('pack for Lyon')\n");
    await page.getByTestId("copy-answer").click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(ANSWER);

    const item = page.getByTestId("session-item").first();
    await item.hover();
    const [download] = await Promise.all([page.waitForEvent("download"), item.getByTestId("session-export-md").click()]);
    expect(download.suggestedFilename()).toBe("Plan the trip to Lyon.md");
    const path = await download.path();
    await access(path);
    expect(await readFile(path, "utf8")).toMatch(/^# Plan the trip to Lyon\n/);
  });

  it("Ctrl+K finds words in sessions' text and skills, not only titles", async () => {
    const wb = session.use(await startWorkbench({ script: () => ({ content: "Sunny weather all week in Paris." }) }));
    const view = await session.open(wb.url);
    const { page } = view;
    await page.getByTestId("composer").fill("What is the forecast?");
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    await page.getByTestId("new-session").click();
    await page.keyboard.press("Control+k");
    await page.getByTestId("palette-input").fill("weather");
    const items = page.getByTestId("palette-item");
    await expect.poll(() => items.allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/^get_weather: .*\nSkills$/), expect.stringMatching(/^What is the forecast\?\n.*weather.*\nFound in sessions$/i)]));
    await items.filter({ hasText: "Found in sessions" }).click();
    await expect.poll(() => page.getByTestId("pane-title").first().innerText()).toBe("What is the forecast?");
  });

  it("on a touch screen the controls that show on hover are always there", async () => {
    const wb = session.use(await startWorkbench({ script: () => ({ content: "Answered." }) }));
    const view = await session.open(wb.url, { width: 1024, height: 768 }, "light", true);
    const { page } = view;
    expect(await page.evaluate(() => matchMedia("(pointer: coarse)").matches)).toBe(true);
    await page.getByTestId("composer").fill("hello from a tablet");
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    // Nothing hovered: the session's actions and the turn's controls are visible all the same.
    // (The session's row is listed once the server says the list changed: waited for, not assumed.)
    await page.getByTestId("session-item").first().waitFor();
    await expect.poll(() => page.getByTestId("session-actions").first().isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId("answer-buttons").first().evaluate((el) => getComputedStyle(el).opacity)).toBe("1");
  });
});
