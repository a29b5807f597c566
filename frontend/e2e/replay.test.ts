/**
 * Replay and compare in a real browser (issue 54): Replay from a turn's buttons on another profile with
 * today's prompt, then the compare page with both answers side by side and the prompt diff naming the
 * edited SOUL.md; the replay listed apart from the chats.
 */
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ModelScript, messageText, startScriptedModelServer } from "../../backend/test-support/scripted-model-server";
import { chat, sessionIdOf, startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession, violations } from "./page-checks";

const caller = (answer: string): ModelScript => (body) => {
  const last = body.messages.at(-1)!;
  if (last.role === "user" && messageText(last.content).startsWith("Read")) return { toolCalls: [{ id: "call_soul", name: "read_file", args: { path: "workspace/SOUL.md" } }], usage: { prompt_tokens: 900, completion_tokens: 9 } };
  if (last.role === "tool") return { content: answer, usage: { prompt_tokens: 1100, completion_tokens: 20 } };
  return { content: "Hello.", usage: { prompt_tokens: 400, completion_tokens: 4 } };
};

describe.skipIf(!chromiumAvailable)("replay and compare in the UI", () => {
  const session = browserSession("replay");

  it("Replay from a turn on profile B with today's prompt: the compare page shows both answers and the prompt diff", async () => {
    const other = await startScriptedModelServer(caller("The soul file says to be helpful, in French now."));
    try {
      const wb = session.use(await startWorkbench({ script: caller("The soul file says to be helpful.") }));
      expect((await fetch(`${wb.url}/api/models/b`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ base_url: other.baseUrl, model: "model-b" }) })).status).toBe(200);
      const sessionId = sessionIdOf(await chat(wb, "Hi"));
      await chat(wb, "Read my soul file.", sessionId);
      await appendFile(join(wb.dataRoot, "workspace/SOUL.md"), "\nAlways answer in French.\n");

      const view = await session.open(wb.url);
      const { page } = view;
      await page.locator(`[data-testid="session-item"][data-session-id="${sessionId}"]`).click();
      const turns = page.getByTestId("turn");
      await expect.poll(() => turns.count()).toBe(2);
      await turns.nth(1).hover();
      await turns.nth(1).getByTestId("replay-turn").click();
      const dialog = page.getByTestId("replay-dialog");
      await dialog.waitFor();
      await dialog.getByTestId("replay-profile").selectOption("b");
      await dialog.getByTestId("replay-prompt-today").check();
      await dialog.getByTestId("replay-start").click();

      // The compare page: the original and the replay side by side, the words that differ marked.
      expect(await page.getByTestId("stage-page").getAttribute("data-page")).toBe("compare");
      const runs = page.getByTestId("compare-run");
      await expect.poll(() => runs.count(), { timeout: 10_000 }).toBe(2);
      await expect.poll(() => runs.nth(1).getByTestId("compare-answer").innerText(), { timeout: 10_000 }).toBe("The soul file says to be helpful, in French now.");
      expect(await runs.nth(0).getByTestId("compare-answer").innerText()).toBe("The soul file says to be helpful.");
      expect((await runs.nth(1).locator('[data-diff="added"]').allInnerTexts()).join("")).toContain("in French now");
      expect(await runs.nth(1).getByTestId("compare-call-status").allInnerTexts()).toEqual(["same"]);
      // What the model was sent: SOUL.md changed, its new line shown.
      const soul = page.locator('[data-testid="prompt-section"][data-section="SOUL.md"]');
      await soul.waitFor();
      expect(await soul.getAttribute("data-status")).toBe("changed");
      expect(await soul.locator('[data-line="added"]').allInnerTexts()).toContain("+ Always answer in French.");
      await view.shot("compare-page");
      expect(await violations(page)).toEqual([]);

      // The replay is listed apart from the chats, under Replays.
      await page.getByTestId("stage-page-close").click();
      await expect.poll(() => page.getByTestId("task-run-groups").innerText()).toContain("Replays");
      expect(view.errors).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
