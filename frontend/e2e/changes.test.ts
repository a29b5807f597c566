/**
 * What tool calls change, in a real Chromium against the real backend with the sandbox (issue 30):
 * the tool card lists the files, a click shows the diff with Revert, a change to MEMORY.md is a diff
 * card in the Stage, and Rewind lists what it will put back before it does.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ChatRequestBody, messageText } from "../../backend/test-support/scripted-model-server";
import { sandboxExpected } from "../../backend/test-support/tool-harness";
import { startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

/** Each user message runs the command after "run:" once, then answers. */
const runWhatIsAsked = (body: ChatRequestBody) => {
  const lastUser = body.messages.findLastIndex((m) => m.role === "user");
  if (body.messages.slice(lastUser).some((m) => m.role === "tool")) return { content: "Done." };
  const command = messageText(body.messages[lastUser].content).split("run: ")[1];
  return { toolCalls: [{ name: "terminal", args: { command } }] };
};

describe.skipIf(!chromiumAvailable || !sandboxExpected().available)("file changes in the Stage", () => {
  const session = browserSession("changes");

  it("lists a call's files on its card and in the Changes tab; a click shows the diff; Revert puts the file back; MEMORY.md changes show as a diff card", async () => {
    const wb = session.use(await startWorkbench({ script: runWhatIsAsked }));
    const memoryBefore = await readFile(join(wb.dataRoot, "memory/MEMORY.md"), "utf8");
    const view = await session.open(wb.url);
    const { page } = view;
    await page.getByTestId("composer").fill("run: printf '%s\\n' '- likes tea' >> memory/MEMORY.md && printf hello > workspace/greeting.txt");
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    const files = page.getByTestId("changed-file");
    await expect.poll(() => files.count()).toBe(2);
    expect(await files.evaluateAll((els) => els.map((e) => `${e.getAttribute("data-kind")} ${e.getAttribute("data-path")}`))).toEqual(["modified memory/MEMORY.md", "created workspace/greeting.txt"]);
    const card = page.getByTestId("memory-diff");
    await card.waitFor();
    expect(await card.innerText()).toContain("+ - likes tea");

    // The Changes tab lists the session's changes by turn and call before any file is clicked.
    await page.getByTestId("tab-changes").click();
    const listed = page.getByTestId("changes-item");
    await expect.poll(() => listed.evaluateAll((els) => els.map((e) => e.getAttribute("data-path")))).toEqual(["memory/MEMORY.md", "workspace/greeting.txt"]);
    expect(await page.getByTestId("changes-list").innerText()).toContain("TURN 1 · TERMINAL");
    // A file the call created is shown whole (no diff against an empty, "removed" line 1).
    await listed.filter({ hasText: "workspace/greeting.txt" }).click();
    await expect.poll(() => page.getByTestId("inspector").locator(".monaco-editor .view-lines").first().innerText()).toBe("hello");
    expect(await page.locator(".monaco-diff-editor").count()).toBe(0);

    await page.locator('[data-testid="changed-file"][data-path="memory/MEMORY.md"]').click();
    await page.locator(".monaco-diff-editor").waitFor();
    await page.getByTestId("revert-file").click();
    await page.getByTestId("revert-done").waitFor();
    expect(await readFile(join(wb.dataRoot, "memory/MEMORY.md"), "utf8")).toBe(memoryBefore);
    expect(await readFile(join(wb.dataRoot, "workspace/greeting.txt"), "utf8")).toBe("hello");
    // The reverted file is marked, on the tool card and in the Changes list; the other is not.
    const reverted = () => page.locator('[data-testid="changed-file"][data-reverted="true"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-path")));
    await expect.poll(reverted).toEqual(["memory/MEMORY.md"]);
    await expect.poll(() => listed.evaluateAll((els) => els.filter((e) => e.getAttribute("data-reverted") === "true").map((e) => e.getAttribute("data-path")))).toEqual(["memory/MEMORY.md"]);
    expect(await page.locator('[data-testid="changed-file"][data-path="memory/MEMORY.md"]').innerText()).toContain("reverted");

    // Another session shows its own changes: none, and not the last session's diff under "none" (issue 56, item 3).
    await page.getByTestId("new-session").click();
    await page.getByTestId("composer").fill("run: true");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator('[data-testid="turn"][data-status="done"]').count()).toBe(1);
    await page.getByTestId("tab-changes").click();
    await page.getByTestId("changes-empty").waitFor();
    expect(await page.getByTestId("revert-file").count()).toBe(0);
    expect(await page.locator(".monaco-diff-editor").count()).toBe(0);
  });

  it("Rewind lists the files it will put back, then puts them back and the conversation goes on from before the turn", async () => {
    const wb = session.use(await startWorkbench({ script: runWhatIsAsked }));
    const view = await session.open(wb.url);
    const { page } = view;
    await page.getByTestId("composer").fill("run: printf one > workspace/story.txt");
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="turn"][data-status="done"]').waitFor();
    await page.getByTestId("composer").fill("run: printf two > workspace/story.txt && rm workspace/USER.md");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator('[data-testid="turn"][data-status="done"]').count()).toBe(2);
    await page.reload();
    await page.waitForSelector("html[data-ready='true']");
    await expect.poll(() => page.getByTestId("turn").count()).toBe(2);
    const second = page.getByTestId("turn").nth(1);
    await second.hover();
    await second.getByTestId("rewind-turn").click();
    const list = page.getByTestId("rewind-list");
    await expect.poll(async () => (await list.innerText()).includes("workspace/story.txt")).toBe(true);
    expect(await list.innerText()).toContain("workspace/USER.md");
    await page.getByTestId("rewind-confirm").click();
    await expect.poll(() => page.getByTestId("turn").count()).toBe(1);
    expect(await readFile(join(wb.dataRoot, "workspace/story.txt"), "utf8")).toBe("one");
    expect(await readFile(join(wb.dataRoot, "workspace/USER.md"), "utf8")).toContain("# User");
  });
});
