/**
 * The MCP view (issue 29) in a real Chromium against the real backend: servers from MCP.json with
 * their state, tools and stderr; a failed one with its reason; Restart; a turn's MCP call on its card.
 */
import { describe, expect, it } from "vitest";
import { callsThenAnswer, connected, rootWith, scriptedMcpServer, waitForMcp } from "../../backend/test-support/mcp-harness";
import { startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

describe.skipIf(!chromiumAvailable)("the MCP view", () => {
  const session = browserSession("mcp");

  it("shows each server's state, tools and trouble; Restart restarts one; an MCP call's card names its server", async () => {
    const dataRoot = await rootWith({
      mcpServers: {
        notes: { command: process.execPath, args: [scriptedMcpServer, "ok"] },
        broken: { command: process.execPath, args: [scriptedMcpServer, "crash"] },
        "filesystem-for-the-design-team": { command: process.execPath, args: [scriptedMcpServer, "crash"] },
      },
    });
    const wb = session.use(await startWorkbench({ dataRoot, script: callsThenAnswer([{ name: "mcp__notes__echo", args: { text: "from the page" } }]) }));
    await waitForMcp(wb, (r) => connected("notes")(r) && r.servers.find((s) => s.name === "broken")?.state === "failed");
    const view = await session.open(wb.url);
    const { page } = view;
    await page.getByTestId("nav-mcp").click();
    const notes = page.locator('[data-testid="mcp-server"][data-server="notes"]');
    const broken = page.locator('[data-testid="mcp-server"][data-server="broken"]');
    await expect.poll(() => notes.getAttribute("data-state")).toBe("connected");
    expect(await broken.getAttribute("data-state")).toBe("failed");
    expect(await broken.getByTestId("mcp-reason").innerText()).toContain("fatal: cannot open database");
    // A long name is shown whole (wrapped), never cut to "fi…".
    const long = page.locator('[data-testid="mcp-server"][data-server="filesystem-for-the-design-team"]').getByTestId("mcp-name");
    expect(await long.innerText()).toBe("filesystem-for-the-design-team");
    expect(await long.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await notes.getByText("Tools", { exact: true }).click();
    expect(await notes.getByTestId("mcp-tool").allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining("mcp__notes__echo")]));

    const pidBefore = (await (await fetch(`${wb.url}/api/mcp`)).json()).servers.find((s: { name: string }) => s.name === "notes").pid;
    await notes.getByRole("button", { name: "Restart notes" }).click();
    await expect.poll(async () => (await (await fetch(`${wb.url}/api/mcp`)).json()).servers.find((s: { name: string; state: string; pid: number }) => s.name === "notes" && s.state === "connected" && s.pid !== pidBefore) !== undefined).toBe(true);
    await expect.poll(() => notes.getAttribute("data-state")).toBe("connected");

    await page.getByTestId("nav-chat").click();
    await page.getByTestId("composer").fill("echo please");
    await page.keyboard.press("Enter");
    const card = page.locator('[data-testid="tool-card"][data-tool="mcp__notes__echo"]');
    await card.waitFor();
    expect(await card.getByTestId("mcp-server-badge").innerText()).toBe("MCP · notes");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    expect(await card.getAttribute("data-status")).toBe("ok");
  });
});
