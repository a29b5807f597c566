/**
 * The review queue in a real browser (issue 55): the consolidation run from the Tasks page, the
 * Proposals page with its diff in Monaco, a hunk accepted (the file changes, the count goes down), a
 * source link opening its turn, and Save as skill from a turn's buttons.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lastMessage, messageText, type ChatRequestBody } from "../../backend/test-support/scripted-model-server";
import { chat, sessionIdOf, startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession, titled, violations } from "./page-checks";

const isHelper = (body: ChatRequestBody) => messageText(lastMessage(body).content).includes("memory helper");
const MEMORY = "# Memory\n\n- The project deploys with Capistrano.\n";

describe.skipIf(!chromiumAvailable)("proposals in the UI", () => {
  const session = browserSession("proposals");

  it("Run now on the Tasks page, the Proposals page with its diff, a hunk accepted and the count, a source opening its turn, Save as skill", async () => {
    let sessionId = "";
    const wb = session.use(
      await startWorkbench({
        script: (body) => {
          if (!isHelper(body)) return { content: "Kamal from now on." };
          const asked = messageText(lastMessage(body).content);
          if (asked.includes("keep what this turn did as a skill")) {
            return { content: JSON.stringify({ skills: [{ name: "deploy-with-kamal", description: "Deploys the project with Kamal.", body: "1. Run `kamal deploy`." }] }) };
          }
          return {
            content: JSON.stringify({
              memory: [
                {
                  file: "memory/MEMORY.md",
                  summary: "The deploy tool changed.",
                  edits: [
                    { op: "change", old: "- The project deploys with Capistrano.", text: "- The project deploys with Kamal.", reason: "the user said so", sources: [{ session_id: sessionId, turn: 1 }] },
                    { op: "add", text: "- Staging is deployed first.", reason: "a guess", sources: [] },
                  ],
                },
              ],
            }),
          };
        },
      }),
    );
    await writeFile(join(wb.dataRoot, "memory/MEMORY.md"), MEMORY);
    sessionId = sessionIdOf(await chat(wb, "We deploy with Kamal now."));
    const view = await session.open(wb.url);
    const { page } = view;

    // The consolidation from the Tasks page: Run now; its proposal is counted on the Memory button.
    await page.getByTestId("nav-tasks").click();
    const card = page.getByTestId("consolidation-card");
    await card.waitFor();
    await card.getByTestId("consolidation-run-now").click();
    await expect.poll(() => page.getByTestId("memory-badge").innerText().catch(() => ""), { timeout: 15_000 }).toBe("1");
    await expect.poll(() => card.getByTestId("consolidation-last-detail").innerText().catch(() => ""), { timeout: 5000 }).toContain("1 proposal (2 edits) for review");

    // Memory → Proposals: the page in the Stage, the diff in Monaco.
    await page.getByTestId("nav-memory").click();
    expect(await page.getByTestId("proposals-count").innerText()).toBe("1 waits for you");
    await page.getByTestId("proposals-open").click();
    const proposal = page.locator('[data-testid="proposal-card"][data-target="memory/MEMORY.md"]');
    await proposal.waitFor();
    expect(await page.getByTestId("stage-page").getAttribute("data-page")).toBe("proposals");
    const diff = proposal.getByTestId("proposal-diff");
    await expect.poll(() => diff.locator(".monaco-editor").count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(async () => (await diff.locator(".view-lines").allInnerTexts()).join("\n").replace(/\u00a0/g, " "), { timeout: 15_000 }).toContain("deploys with Kamal");
    await view.shot("proposals-page");
    // Nothing serious for assistive technology on the page, the diff included; no native title tooltips.
    expect(await violations(page)).toEqual([]);
    expect(await titled(page)).toEqual([]);

    // Accept the first hunk: the file changes by it alone; reject the second: nothing waits, the count goes.
    const hunks = proposal.getByTestId("proposal-hunk");
    await hunks.nth(0).getByTestId("proposal-accept").click();
    await expect.poll(() => readFile(join(wb.dataRoot, "memory/MEMORY.md"), "utf8")).toBe("# Memory\n\n- The project deploys with Kamal.\n");
    await expect.poll(() => hunks.nth(0).getAttribute("data-state")).toBe("accepted");
    expect(await page.getByTestId("memory-badge").innerText()).toBe("1");
    await hunks.nth(1).getByTestId("proposal-reject").click();
    await expect.poll(() => page.getByTestId("memory-badge").count()).toBe(0);
    expect(await readFile(join(wb.dataRoot, "memory/MEMORY.md"), "utf8")).toBe("# Memory\n\n- The project deploys with Kamal.\n");

    // The source link opens its turn: the page gives the Stage back with that session's turn.
    await page.getByTestId("proposals-all").click();
    await proposal.getByTestId("proposal-source-turn").first().click();
    await expect.poll(() => page.getByTestId("stage-page").count()).toBe(0);
    const turns = page.getByTestId("turn");
    await expect.poll(() => turns.first().getByTestId("user-message").innerText()).toBe("We deploy with Kamal now.");

    // Save as skill from the turn's buttons: a skill proposal, counted, accepted, listed with the skills.
    await turns.first().hover();
    await turns.first().getByTestId("save-as-skill").click();
    await expect.poll(() => page.getByTestId("memory-badge").innerText().catch(() => ""), { timeout: 15_000 }).toBe("1");
    await page.getByTestId("proposals-open").click();
    const skill = page.locator('[data-testid="proposal-card"][data-target="skills/deploy-with-kamal/SKILL.md"]');
    await skill.waitFor();
    await skill.getByTestId("proposal-accept").click();
    await expect.poll(async () => readFile(join(wb.dataRoot, "skills/deploy-with-kamal/SKILL.md"), "utf8").catch(() => "")).toContain("name: deploy-with-kamal");
    await page.getByTestId("nav-skills").click();
    await expect.poll(() => page.getByTestId("sidebar").innerText()).toContain("deploy-with-kamal");
    expect(view.errors).toEqual([]);
  });
});
