/**
 * Hooks (issue 52) in a real Chromium against the real backend: a PreToolUse hook's line under the
 * tool card it acted on, live and after a reload; the Hooks view lists the hook, and Test runs it
 * against the session's past call and shows what it decided.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { callsThenAnswer } from "../../backend/test-support/mcp-harness";
import { sandboxExpected } from "../../backend/test-support/tool-harness";
import { startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

describe.skipIf(!chromiumAvailable || !sandboxExpected().available)("hooks in the workbench", () => {
  const session = browserSession("hooks");

  it("a hook's line stands under its tool card, live and after a reload; the Hooks view tests it against the past call", async () => {
    const root = await mkdtemp(join(tmpdir(), "moc-e2e-hooks-"));
    roots.push(root);
    await mkdir(join(root, "hooks"));
    // Lets echo run unasked, says why; anything else it leaves to the rules.
    const guard = `#!/bin/sh\nif grep -q '"command":"echo'; then echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"echo only prints"}}'; fi\n`;
    await writeFile(join(root, "hooks", "guard.sh"), guard);
    await chmod(join(root, "hooks", "guard.sh"), 0o755);
    await writeFile(join(root, "HOOKS.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/hooks/guard.sh' }] }] } }, null, 2));
    const wb = session.use(await startWorkbench({ dataRoot: root, script: callsThenAnswer([{ name: "terminal", args: { command: "echo from-the-page" } }]) }));
    const view = await session.open(wb.url);
    const { page } = view;

    await page.getByTestId("composer").fill("print it");
    await page.keyboard.press("Enter");
    const card = page.locator('[data-testid="tool-card"][data-tool="terminal"]');
    const line = card.getByTestId("hook-line");
    await line.waitFor();
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    expect(await line.getAttribute("data-event")).toBe("PreToolUse");
    expect(await line.getAttribute("data-decision")).toBe("allow");
    expect(await line.getByTestId("hook-outcome").innerText()).toBe("allowed");
    await line.locator("button").first().click();
    expect(await line.getByTestId("hook-detail").innerText()).toContain("echo only prints");
    await view.shot("hook-line");

    // After a reload, the session replays the same line under the same card.
    await page.goto(wb.url);
    await page.getByTestId("session-item").first().click();
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    const replayed = page.locator('[data-testid="tool-card"][data-tool="terminal"]').getByTestId("hook-line");
    await replayed.waitFor();
    expect(await replayed.getAttribute("data-decision")).toBe("allow");

    // The Hooks view: the hook by event, Test against this session's call (the tool does not run again).
    await page.getByTestId("nav-settings").click();
    await page.getByTestId("settings-go-hooks").click();
    const hookCard = page.getByTestId("hook-card");
    await hookCard.waitFor();
    expect(await hookCard.getByTestId("hook-matcher").innerText()).toBe("Bash");
    expect(await hookCard.getByTestId("hook-last-run").innerText()).toContain("Last run: allowed");
    const turnsBefore = wb.model.requests.length;
    await hookCard.getByTestId("hook-test").click();
    const result = hookCard.getByTestId("hook-test-result").getByTestId("hook-line");
    await result.waitFor();
    expect(await result.getAttribute("data-decision")).toBe("allow");
    expect(wb.model.requests.length).toBe(turnsBefore);
    await expect.poll(() => page.getByTestId("hook-runs").getByTestId("hook-line").count()).toBeGreaterThanOrEqual(2);
    await view.shot("hooks-view");
  });
});
