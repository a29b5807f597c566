/**
 * Scheduled tasks in the UI (issue 40): a task made in the form (its next times shown as the schedule
 * is typed), its run seen with a toast and the Tasks badge, its session opened from the history, Run
 * now, and the switch that disables it. The model is a scripted OpenAI-compatible server.
 */
import { describe, expect, it } from "vitest";
import type { TaskRun } from "@mini-openclaw/protocol";
import { chat, jsonOf, postJson, sessionIdOf, startWorkbench, taskRuns } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

describe.skipIf(!chromiumAvailable)("scheduled tasks in the UI", () => {
  const session = browserSession("tasks");

  it("create a task in the form, see it run and notify, open its run's session, Run now, disable it", async () => {
    const wb = session.use(await startWorkbench({ script: () => ({ content: "The plants are watered." }) }));
    const view = await session.open(wb.url);
    const { page } = view;

    await page.getByTestId("nav-tasks").click();
    await page.getByTestId("tasks-empty").waitFor();
    await page.getByTestId("task-new").click();
    await page.getByTestId("task-name").fill("Water the plants");
    await page.getByTestId("task-prompt").fill("Check that the plants are watered.");
    // A bad expression shows the parser's reason; a good one its next five times.
    await page.getByTestId("task-cron").fill("0 25 * * *");
    await expect.poll(() => page.getByTestId("task-preview-error").innerText().catch(() => "")).toMatch(/Invalid cron expression "0 25 \* \* \*"/);
    // The browser logs the refused preview as a failed resource load; only the expected 400s.
    expect(view.errors.every((e) => e.includes("status of 400"))).toBe(true);
    view.errors.length = 0;
    await page.getByTestId("task-cron").fill("*/4 * * * * *");
    await expect.poll(() => page.getByTestId("task-preview").innerText()).toMatch(/^Next: (.+ · ){4}.+$/);
    await view.shot("task-form");
    await page.getByTestId("task-save").click();

    const card = page.getByTestId("task-card").first();
    await card.waitFor();
    expect(await card.getByTestId("task-schedule").innerText()).toMatch(/^Every 4 seconds \(.+\)$/);
    expect(await card.getByTestId("task-next").innerText()).toMatch(/^Next: /);

    // Away from the Tasks view, a finished run toasts and the badge counts it.
    await page.getByTestId("nav-chat").click();
    const toast = page.getByTestId("toast").filter({ hasText: 'Task "Water the plants" finished: The plants are watered.' });
    await toast.first().waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId("tasks-badge").innerText()).toMatch(/^[1-9]\d*$/);
    await view.shot("task-toast");
    await page.getByTestId("nav-tasks").click();
    expect(await page.getByTestId("tasks-badge").count()).toBe(0);

    // The run's session opens from the history.
    await card.getByTestId("task-history-toggle").click();
    const run = card.getByTestId("task-run").first();
    await run.waitFor();
    expect(await run.getByTestId("task-outcome").getAttribute("data-outcome")).toBe("done");
    await run.getByTestId("task-run-session").click();
    await expect.poll(() => page.getByTestId("pane-title").first().innerText()).toMatch(/^Water the plants · \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await expect.poll(() => page.getByTestId("answer").last().innerText()).toContain("The plants are watered.");

    // Disabled: nothing more on its schedule; Run now still runs it. (The run took the Stage: back to the Tasks page.)
    await page.getByTestId("nav-tasks").click();
    await card.getByTestId("task-history-toggle").click();
    await card.getByTestId("task-switch").click();
    await expect.poll(() => card.getByTestId("task-next").innerText()).toBe("Disabled");
    const before = wb.model.requests.length;
    await card.getByTestId("task-run-now").click();
    await expect.poll(() => card.locator('[data-testid="task-run"]').filter({ hasText: "run now" }).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => wb.model.requests.length).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 4500));
    expect(wb.model.requests.length).toBe(before + 1);
    await view.shot("tasks-view");
  });

  it("a task's runs are listed under it, apart from the chats; the group opens; the last run's outcome opens its session", async () => {
    const wb = session.use(await startWorkbench({ script: () => ({ content: "Checked." }) }));
    const origin = { headers: { origin: wb.url } };
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const task = await jsonOf<{ id: string }>(postJson(`${wb.url}/api/tasks`, { name: "Minute check", prompt: "Check the queue.", schedule: { kind: "once", at: later } }, origin));
    const chatId = sessionIdOf(await chat(wb, "A question of mine"));
    let last = "";
    for (let i = 0; i < 3; i++) {
      const run = await jsonOf<TaskRun>(postJson(`${wb.url}/api/tasks/${task.id}/run`, {}, origin));
      await expect.poll(async () => (await taskRuns(wb.url, task.id)).find((r) => r.id === run.id)?.outcome, { timeout: 10_000 }).toBe("done");
      last = (await taskRuns(wb.url, task.id)).find((r) => r.id === run.id)!.session_id!;
    }

    const view = await session.open(wb.url);
    const { page } = view;
    // The chat on its own; the three runs under one row for their task, closed.
    await page.getByTestId("task-run-group").waitFor();
    expect(await page.getByTestId("session-item").count()).toBe(1);
    expect(await page.getByTestId("session-item").getAttribute("data-session-id")).toBe(chatId);
    const group = page.locator('[data-testid="task-run-group"]');
    expect(await group.count()).toBe(1);
    expect(await group.innerText()).toMatch(/Minute check\s+3 runs/);
    await group.getByRole("button", { name: /Minute check/ }).click();
    await expect.poll(() => group.getByTestId("session-item").count()).toBe(3);
    await view.shot("task-runs-grouped");

    // The task's last outcome ("done") opens its run.
    await page.getByTestId("nav-tasks").click();
    await page.getByTestId("task-card").first().getByTestId("task-outcome-open").click();
    await expect.poll(() => page.url()).toContain(`session=${last}`);
    await expect.poll(() => page.getByTestId("answer").last().innerText()).toContain("Checked.");
  });
});
