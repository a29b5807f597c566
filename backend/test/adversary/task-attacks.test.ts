/**
 * Round 4 on the scheduler: a task that schedules tasks (finding 3), a run that ends before its start
 * is recorded (finding 5), a restart after a seconds cron missed 30 hours (finding 6). Real server,
 * real tasks, a scripted model.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Task, TasksReply } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { lastMessage } from "../../test-support/scripted-model-server.js";
import { jsonOf, postJson, startWorkbench, taskRuns, type Workbench, type WorkbenchOptions } from "../../test-support/workbench-harness.js";

let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  wb = undefined;
});

const json = jsonOf;
const create = (body: Record<string, unknown>) => postJson(`${wb!.url}/api/tasks`, body);
const runsOf = (id: string) => taskRuns(wb!.url, id);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const start = async (options: WorkbenchOptions) => (wb = await startWorkbench(options));

describe("a task that schedules tasks (finding 3)", () => {
  it("creates nothing without a person, even with approvals off: each schedule call from a run waits for the user", async () => {
    await start({
      // The default test set-up: APPROVALS=off, so nothing else would ever ask.
      env: { TASK_MIN_INTERVAL_SECONDS: "1" },
      script: (body) =>
        lastMessage(body).role === "tool"
          ? { content: "Done." }
          : { toolCalls: [{ name: "schedule", args: { name: "Spawn", prompt: "Call schedule again with this same prompt.", cron: "* * * * * *" } }] },
    });
    const task = await json<Task>(create({ name: "Spawn", prompt: "Call schedule again with this same prompt.", approval_timeout_seconds: 1, schedule: { kind: "every", seconds: 1 } }));
    await sleep(4500);
    const { tasks } = await json<TasksReply>(fetch(`${wb!.url}/api/tasks`));
    expect(tasks.map((t) => t.id)).toEqual([task.id]);
    const runs = await runsOf(task.id);
    expect(runs.length).toBeGreaterThan(0);
    // Each run asked: the approval was recorded, denied when nobody came.
    const session = await json<{ entries: unknown[] }>(fetch(`${wb!.url}/api/sessions/${runs.find((r) => r.session_id)!.session_id}`));
    expect(JSON.stringify(session.entries)).toMatch(/"type":"approval_request"[^}]*"tool":"schedule"/);
    expect(JSON.stringify(session.entries)).toContain('"decision":"denied","by":"timeout"');
  });

  it("a run set to deny what nobody approves is refused at once", async () => {
    await start({ script: (body) => (lastMessage(body).role === "tool" ? { content: "Done." } : { toolCalls: [{ name: "schedule", args: { name: "x", prompt: "y", every_minutes: 5 } }] }) });
    const task = await json<Task>(create({ name: "Deny", prompt: "p", unattended_approvals: "deny", schedule: { kind: "once", at: new Date(Date.now() + 3_600_000).toISOString() } }));
    await postJson(`${wb!.url}/api/tasks/${task.id}/run`, {});
    await expect.poll(async () => (await runsOf(task.id))[0]?.outcome, { timeout: 8000 }).toBe("done");
    expect((await json<TasksReply>(fetch(`${wb!.url}/api/tasks`))).tasks).toHaveLength(1);
  });

  it("has a minimum interval by default: a task every second is refused with the setting named", async () => {
    await start({ env: { TASK_MIN_INTERVAL_SECONDS: "", TASK_RUNS_PER_MINUTE: "" } });
    const refused = await create({ name: "Fast", prompt: "p", schedule: { kind: "cron", expr: "* * * * * *" } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toMatch(/runs 1 s apart; a task runs at most once every 60 s \(TASK_MIN_INTERVAL_SECONDS\)/);
    expect((await create({ name: "Ok", prompt: "p", schedule: { kind: "every", seconds: 60 } })).status).toBe(201);
  });

  it("a seconds cron written into TASKS.json by hand still runs at most once a minimum interval", async () => {
    const root = await mkdtemp(join(tmpdir(), "moc-tasks-"));
    const task = { id: "task_aaaaaa", name: "By hand", prompt: "p", schedule: { kind: "cron", expr: "* * * * * *" }, created_at: new Date().toISOString() };
    await writeFile(join(root, "TASKS.json"), JSON.stringify({ version: 1, tasks: [task] }));
    try {
      await start({ dataRoot: root, env: { TASK_MIN_INTERVAL_SECONDS: "3" }, script: () => ({ content: "ok" }) });
      await sleep(5000);
      // Every second would be 5; at least 3 s apart, at most 2.
      expect((await runsOf(task.id)).length).toBeLessThanOrEqual(2);
    } finally {
      await wb?.close();
      wb = undefined;
      await rm(root, { recursive: true, force: true });
    }
  });

  it("caps the runs a minute across all tasks; those over it are recorded as skipped with the reason", async () => {
    await start({ env: { TASK_MIN_INTERVAL_SECONDS: "1", TASK_RUNS_PER_MINUTE: "4" }, script: () => ({ content: "ok" }) });
    const ids = [];
    for (const name of ["a", "b", "c"]) ids.push((await json<Task>(create({ name, prompt: "p", schedule: { kind: "every", seconds: 1 } }))).id);
    await sleep(4500);
    const runs = (await Promise.all(ids.map(runsOf))).flat();
    expect(runs.filter((r) => r.outcome !== "skipped")).toHaveLength(4);
    expect(runs.filter((r) => r.outcome === "skipped").length).toBeGreaterThan(0);
    expect(runs.find((r) => r.outcome === "skipped")?.detail).toMatch(/limit of 4 scheduled runs a minute across all tasks \(TASK_RUNS_PER_MINUTE\)/);
  });
});

describe("a run that ends before its start is recorded (finding 5)", () => {
  it("is recorded as ended, and the next run is not skipped as still going", async () => {
    await start({ script: () => ({ content: "ok" }) });
    // A profile with no key and no base URL: its turn ends at once, before anything is stored.
    await fetch(`${wb!.url}/api/models/nokey`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "m" }) });
    const task = await json<Task>(create({ name: "No key", prompt: "p", profile: "nokey", schedule: { kind: "once", at: new Date(Date.now() + 3_600_000).toISOString() } }));
    for (let i = 0; i < 3; i++) {
      await postJson(`${wb!.url}/api/tasks/${task.id}/run`, {});
      await expect.poll(async () => (await runsOf(task.id))[0]?.outcome, { timeout: 5000 }).toBe("failed");
    }
    const runs = await runsOf(task.id);
    expect(runs.map((r) => r.outcome)).toEqual(["failed", "failed", "failed"]);
    expect(runs[0].detail).toMatch(/nokey/);
    expect((await json<Task>(fetch(`${wb!.url}/api/tasks/${task.id}`))).running).toBe(false);
  });
});

describe("a restart after a seconds cron missed 30 hours (finding 6)", () => {
  it("finds the missed time without stepping: the server answers at once, the last missed time is run once", async () => {
    const root = await mkdtemp(join(tmpdir(), "moc-tasks-"));
    const longAgo = new Date(Date.now() - 30 * 3_600_000).toISOString();
    const task = { id: "task_bbbbbb", name: "Seconds", prompt: "p", schedule: { kind: "cron", expr: "* * * * * *" }, created_at: longAgo };
    await writeFile(join(root, "TASKS.json"), JSON.stringify({ version: 1, tasks: [task] }));
    await mkdir(join(root, "storage", "tasks"), { recursive: true });
    const run = { id: "run_000000000001", task_id: task.id, trigger: "schedule", scheduled_for: longAgo, started_at: longAgo, ended_at: longAgo, outcome: "done" };
    await writeFile(join(root, "storage", "tasks", "runs.jsonl"), `${JSON.stringify(run)}\n`);
    try {
      const started = performance.now();
      await start({ dataRoot: root, env: { TASK_MIN_INTERVAL_SECONDS: "3600" }, script: () => ({ content: "ok" }) });
      expect((await fetch(`${wb!.url}/api/health`)).status).toBe(200);
      // Stepping through 108,000 seconds took 19.6 s; found directly it is well within the 3 s.
      expect(performance.now() - started).toBeLessThan(3000);
      // The last missed second is within the grace period: it runs once at start, as documented (recorded as it starts).
      await expect.poll(async () => (await runsOf(task.id)).find((r) => r.trigger === "catch_up"), { timeout: 5000 }).toBeDefined();
      const caughtUp = (await runsOf(task.id)).find((r) => r.trigger === "catch_up");
      expect(Date.now() - Date.parse(caughtUp!.scheduled_for!)).toBeLessThan(60_000);
    } finally {
      await wb?.close();
      wb = undefined;
      await rm(root, { recursive: true, force: true });
    }
  });
});
