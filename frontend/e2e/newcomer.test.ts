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

  it("a session's search snippet reads as text; a row's controls leave its date readable; Agents makes a new role", async () => {
    const wb = session.use(await startWorkbench({ script: () => ({ content: "The **weather** in Paris is *sunny* all [week](https://example.com)." }) }));
    const view = await session.open(wb.url);
    const { page } = view;
    await page.getByTestId("composer").fill("What is the forecast?");
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    await page.getByTestId("session-search").fill("weather");
    const hit = page.getByTestId("search-result").first();
    await expect.poll(() => hit.innerText()).toContain("The weather in Paris is sunny all week.");
    expect(await hit.innerText()).not.toContain("**");
    await page.getByTestId("session-search").fill("");

    // Hovered, the row's controls sit beside its date, not over it.
    const row = page.getByTestId("session-item").first();
    await row.hover();
    await row.getByTestId("session-actions").waitFor();
    const [textRight, actionsLeft] = await row.evaluate((el) => {
      const meta = el.querySelector('[data-testid="session-meta"]')!;
      const actions = el.querySelector('[data-testid="session-actions"]')!;
      return [meta.getBoundingClientRect().right - parseFloat(getComputedStyle(meta).paddingRight), actions.getBoundingClientRect().left];
    });
    expect(textRight).toBeLessThanOrEqual(actionsLeft + 1);

    // Agents: New role makes agents/<name>.md from a template, opens it, and the role is listed.
    await page.getByTestId("nav-agents").click();
    await page.getByTestId("role-new").click();
    await page.getByTestId("role-name").fill("Bad Name");
    expect(await page.getByTestId("role-create").isDisabled()).toBe(true);
    await page.getByTestId("role-name").fill("planner");
    await page.getByTestId("role-create").click();
    await expect.poll(() => page.locator('[data-testid="file-item"][data-path="agents/planner.md"]').count()).toBe(1);
    await expect.poll(() => page.getByTestId("role-item").allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining("planner")]));
    const saved = await (await fetch(`${wb.url}/api/files?path=agents/planner.md`)).json();
    expect(saved.content).toMatch(/^---\nname: planner\ndescription: .+\ntools: \[read_file\]\n---\n/);
  });

  it("on a touch screen the controls that show on hover are a \"more\" menu, always there, each action named", async () => {
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
    const sessionMore = page.getByTestId("session-more").first();
    await expect.poll(() => sessionMore.isVisible()).toBe(true);
    expect(await page.getByTestId("session-actions").first().isVisible()).toBe(false);
    await sessionMore.click();
    expect(await page.getByRole("menuitem").allInnerTexts()).toEqual(["Rename", "Pin to the top", "Export as Markdown", "Export as JSON", "Delete"]);
    await page.keyboard.press("Escape");
    expect(await page.getByRole("menu").count()).toBe(0);
    // The turn's Regenerate, Fork, Rewind, Replay and Save as skill: one "⋯" under the answer; Fork from it makes a new session.
    const turnMore = page.getByTestId("turn-more").first();
    await expect.poll(() => turnMore.isVisible()).toBe(true);
    await turnMore.click();
    expect(await page.getByRole("menuitem").allInnerTexts()).toEqual(["Regenerate this answer", "Fork into a new session", "Rewind to before this turn", "Replay", "Save as skill"]);
    await page.getByTestId("menu-fork").click();
    await expect.poll(() => page.getByTestId("toast").last().innerText()).toContain("Forked into a new session");
    await expect.poll(() => page.getByTestId("session-item").count()).toBe(2);
  });
});
