/**
 * Scheduled tasks and the heartbeat (issue 40), over real HTTP with real time: schedules with
 * seconds, a scripted OpenAI-compatible model, the UI event stream every page reads.
 */
import { readFile, writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionDetail, Task, TaskRun, TasksReply, UiEvent } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { lastMessage } from "../test-support/scripted-model-server.js";
import { chat, fetchSession, jsonOf, listenUiEvents, postJson, sessionIdOf, startWorkbench, taskRuns, type Workbench, type WorkbenchOptions } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
let stopEvents: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stopEvents?.();
  stopEvents = undefined;
  await wb?.close();
  wb = undefined;
});

const json = jsonOf;
const create = (body: Record<string, unknown>) => postJson(`${wb!.url}/api/tasks`, body);
const runsOf = (id: string) => taskRuns(wb!.url, id);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every UI event from now on, as they come. */
async function collectUiEvents(): Promise<UiEvent[]> {
  const listening = await listenUiEvents(wb!.url);
  stopEvents = listening.stop;
  return listening.events;
}
const taskEvents = (seen: UiEvent[]) => seen.filter((e): e is Extract<UiEvent, { type: "task_run" }> => e.type === "task_run");

async function start(options: WorkbenchOptions = {}) {
  wb = await startWorkbench({ script: () => ({ content: "Done as asked." }), ...options });
  return wb;
}

describe("tasks on a schedule", () => {
  it("a task every 2 s runs at its times (± 1 s), each run in a new session titled with its name and time", async () => {
    await start();
    const created = await create({ name: "Tick", prompt: "Say tick.", schedule: { kind: "cron", expr: "*/2 * * * * *" } });
    expect(created.status).toBe(201);
    const task = (await created.json()) as Task;
    expect(task).toMatchObject({ enabled: true, running: false, last_run: null });
    expect(Date.parse(task.next_run!) % 2000).toBe(0);

    await expect.poll(async () => (await runsOf(task.id)).filter((r) => r.outcome === "done").length, { timeout: 9000 }).toBeGreaterThanOrEqual(2);
    const runs = (await runsOf(task.id)).filter((r) => r.outcome === "done");
    for (const run of runs) {
      expect(run.trigger).toBe("schedule");
      expect(Date.parse(run.scheduled_for!) % 2000).toBe(0);
      expect(Math.abs(Date.parse(run.started_at) - Date.parse(run.scheduled_for!))).toBeLessThanOrEqual(1000);
      expect(run.detail).toBe("Done as asked.");
    }
    const sessions = new Set(runs.map((r) => r.session_id));
    expect(sessions.size).toBe(runs.length);
    const first = await fetchSession(wb!.url, runs[0].session_id!);
    expect(first.title).toMatch(/^Tick · \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(first.entries.find((e) => e.type === "user")).toMatchObject({ content: "Say tick." });
    // Listed in the sessions, each marked as its task's run (the page lists them under the task).
    const listed = await json<{ sessions: Array<{ id: string; task_id?: string }> }>(fetch(`${wb!.url}/api/sessions`));
    expect(listed.sessions.filter((s) => sessions.has(s.id)).map((s) => s.task_id)).toEqual(runs.map(() => task.id));
  });

  it("a task into a named session adds its turns there; a one-time task runs once", async () => {
    await start();
    const id = sessionIdOf(await chat(wb!, "hello"));
    const named = (await (await create({ name: "Into mine", prompt: "Add a line.", session: id, schedule: { kind: "every", seconds: 1 } })).json()) as Task;
    const once = (await (await create({ name: "Once", prompt: "Only once.", schedule: { kind: "once", at: new Date(Date.now() + 1500).toISOString() } })).json()) as Task;
    await expect.poll(async () => (await runsOf(named.id)).filter((r) => r.outcome === "done").length, { timeout: 8000 }).toBeGreaterThanOrEqual(2);
    for (const run of await runsOf(named.id)) if (run.outcome === "done") expect(run.session_id).toBe(id);
    const session = (await fetchSession(wb!.url, id)) as SessionDetail;
    expect(session.entries.filter((e) => e.type === "user" && e.content === "Add a line.").length).toBeGreaterThanOrEqual(2);
    // The user's own chat stays a chat in the list, though a task's runs go there.
    const listed = await json<{ sessions: Array<{ id: string; task_id?: string }> }>(fetch(`${wb!.url}/api/sessions`));
    expect(listed.sessions.find((s) => s.id === id)).not.toHaveProperty("task_id");

    await expect.poll(async () => (await runsOf(once.id)).map((r) => r.outcome), { timeout: 8000 }).toEqual(["done"]);
    await sleep(2500);
    expect(await runsOf(once.id)).toHaveLength(1);
    expect((await json<Task>(fetch(`${wb!.url}/api/tasks/${once.id}`))).next_run).toBeNull();
  });

  it("a run that would overlap the previous one is skipped, and recorded so", async () => {
    await start({ script: () => ({ content: "Slow answer.", firstByteDelayMs: 2500 }) });
    const task = (await (await create({ name: "Busy", prompt: "Take your time.", schedule: { kind: "cron", expr: "* * * * * *" } })).json()) as Task;
    await expect.poll(async () => (await runsOf(task.id)).some((r) => r.outcome === "skipped"), { timeout: 8000 }).toBe(true);
    const skipped = (await runsOf(task.id)).find((r) => r.outcome === "skipped")!;
    expect(skipped.detail).toBe("Its previous run was still going.");
    await expect.poll(async () => (await runsOf(task.id)).some((r) => r.outcome === "done"), { timeout: 8000 }).toBe(true);
    // Each run's turn went alone: the model never had two of them at once.
    expect(wb!.model.requests.length).toBeLessThanOrEqual((await runsOf(task.id)).filter((r) => r.outcome !== "skipped").length);
  });

  it("Stop on a running task's turn ends it, recorded as stopped", async () => {
    await start({ script: () => ({ content: "never finished", firstByteDelayMs: 4000 }) });
    const task = (await (await create({ name: "Long", prompt: "Work long.", schedule: { kind: "once", at: new Date(Date.now() + 3_600_000).toISOString() } })).json()) as Task;
    const run = await json<TaskRun>(postJson(`${wb!.url}/api/tasks/${task.id}/run`, {}));
    expect(run).toMatchObject({ trigger: "manual", outcome: "running", scheduled_for: null });
    expect((await json<Task>(fetch(`${wb!.url}/api/tasks/${task.id}`))).running).toBe(true);
    // Followed live like any turn.
    expect((await fetch(`${wb!.url}/api/sessions/${run.session_id}/stream`)).status).toBe(200);
    expect((await postJson(`${wb!.url}/api/sessions/${run.session_id}/stop`, {})).status).toBe(200);
    await expect.poll(async () => (await runsOf(task.id))[0].outcome, { timeout: 8000 }).toBe("stopped");
  });
});

describe("restarts", () => {
  it("tasks and their history survive a restart; a time missed while down runs once at start; a run cut by shutdown is aborted", async () => {
    const dataRoot = await mkdtemp(join(tmpdir(), "moc-tasks-"));
    try {
      await start({ dataRoot, script: () => ({ content: "tick", firstByteDelayMs: 300 }) });
      const task = (await (await create({ name: "Every 2 s", prompt: "tick", schedule: { kind: "cron", expr: "*/2 * * * * *" } })).json()) as Task;
      await expect.poll(async () => (await runsOf(task.id)).filter((r) => r.outcome === "done").length, { timeout: 8000 }).toBeGreaterThanOrEqual(1);
      // Closed in the middle of a run: started on the next even second, cut 100 ms in.
      const nextEven = 2000 - (Date.now() % 2000);
      await sleep(nextEven + 100);
      await wb!.close();
      wb = undefined;
      const before = JSON.parse(await readFile(join(dataRoot, "TASKS.json"), "utf8")) as { tasks: Array<{ id: string }> };
      expect(before.tasks.map((t) => t.id)).toEqual([task.id]);
      await sleep(5000); // two or three times pass while it is down

      await start({ dataRoot, script: () => ({ content: "tick" }) });
      const startedAt = Date.now();
      const runs = await runsOf(task.id);
      expect(runs.some((r) => r.outcome === "aborted" && r.detail)).toBe(true);
      await expect.poll(async () => (await runsOf(task.id)).filter((r) => r.trigger === "catch_up").length, { timeout: 3000 }).toBe(1);
      const caughtUp = (await runsOf(task.id)).find((r) => r.trigger === "catch_up")!;
      expect(Date.parse(caughtUp.started_at) - startedAt).toBeLessThan(1500);
      expect(Date.parse(caughtUp.scheduled_for!)).toBeLessThan(startedAt);
      await sleep(2500);
      // Once, never once per missed time; the schedule then goes on.
      expect((await runsOf(task.id)).filter((r) => r.trigger === "catch_up")).toHaveLength(1);
      expect((await runsOf(task.id)).filter((r) => r.trigger === "schedule" && Date.parse(r.started_at) > startedAt).length).toBeGreaterThanOrEqual(1);
    } finally {
      await wb?.close();
      wb = undefined;
      await rm(dataRoot, { recursive: true, force: true });
    }
  }, 40_000);
});

describe("the heartbeat and notifications", () => {
  it("HEARTBEAT_OK is recorded and quiet; anything else notifies every page", async () => {
    let answer = "HEARTBEAT_OK";
    await start({ script: () => ({ content: answer }) });
    const seen = await collectUiEvents();
    const on = await fetch(`${wb!.url}/api/tasks/heartbeat`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ enabled: true, every_minutes: 30 }) });
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({ enabled: true, every_minutes: 30, checklist: "workspace/HEARTBEAT.md" });
    expect((await json<{ tasks: { heartbeat: boolean } }>(fetch(`${wb!.url}/api/health`))).tasks.heartbeat).toBe(true);

    await postJson(`${wb!.url}/api/tasks/heartbeat/run`, {});
    await expect.poll(async () => (await runsOf("heartbeat"))[0]?.outcome, { timeout: 8000 }).toBe("quiet");
    // The checklist went with it.
    const sent = JSON.stringify(lastMessage(wb!.model.requests[0].body).content);
    expect(sent).toContain("HEARTBEAT_OK");
    expect(sent).toContain("Is there anything in memory/MEMORY.md marked as due today");
    await expect.poll(() => taskEvents(seen).some((e) => e.run.outcome === "quiet")).toBe(true);
    expect(taskEvents(seen).find((e) => e.run.outcome === "quiet")!.notify).toBe(false);

    answer = "The backup folder is full: you should clear it.";
    await postJson(`${wb!.url}/api/tasks/heartbeat/run`, {});
    await expect.poll(() => taskEvents(seen).find((e) => e.run.outcome === "done"), { timeout: 8000 }).toMatchObject({ notify: true, task_name: "Heartbeat", run: { detail: answer } });
    // Both runs went to the heartbeat's one session.
    const runs = await runsOf("heartbeat");
    expect(new Set(runs.map((r) => r.session_id)).size).toBe(1);
  });

  it("an approval in an unattended run waits, notifies, and is denied when its time is up", async () => {
    await start({
      env: { APPROVALS: "on" },
      script: (body) => (lastMessage(body).role === "tool" ? { content: `Tool said: ${String(lastMessage(body).content).slice(0, 80)}` } : { toolCalls: [{ name: "terminal", args: { command: "touch workspace/made-by-task" } }] }),
    });
    const seen = await collectUiEvents();
    const task = (await (await create({ name: "Needs a yes", prompt: "Make the file.", approval_timeout_seconds: 2, schedule: { kind: "once", at: new Date(Date.now() + 3_600_000).toISOString() } })).json()) as Task;
    await postJson(`${wb!.url}/api/tasks/${task.id}/run`, {});
    await expect.poll(() => taskEvents(seen).find((e) => e.waiting_approval), { timeout: 8000 }).toMatchObject({ notify: true, task_name: "Needs a yes" });
    // The card is in the session, waiting, like any approval.
    expect((await json<{ pending: unknown[] }>(fetch(`${wb!.url}/api/approvals`))).pending).toHaveLength(1);
    await expect.poll(async () => (await runsOf(task.id))[0].outcome, { timeout: 8000 }).toBe("done");
    const session = await fetchSession(wb!.url, (await runsOf(task.id))[0].session_id!);
    const approval = JSON.stringify(session.entries);
    expect(approval).toMatch(/"type":"approval","id":"[^"]+","call_id":"[^"]+","tool":"terminal","decision":"denied","by":"timeout"/);
    expect(approval).toContain("nobody approved it within 2 s");

    // Set to deny at once: no card, no wait.
    const denying = (await (await create({ name: "Deny", prompt: "Make the file.", unattended_approvals: "deny", schedule: { kind: "once", at: new Date(Date.now() + 3_600_000).toISOString() } })).json()) as Task;
    await postJson(`${wb!.url}/api/tasks/${denying.id}/run`, {});
    await expect.poll(async () => (await runsOf(denying.id))[0].outcome, { timeout: 8000 }).toBe("done");
    const denied = JSON.stringify((await fetchSession(wb!.url, (await runsOf(denying.id))[0].session_id!)).entries);
    expect(denied).toContain('"rule":"unattended: deny"');
  });
});

describe("the agent's schedule tool", () => {
  it("asks first, showing the schedule and its next three times; approved, it makes a task marked as the agent's, which then runs", async () => {
    const at = new Date(Date.now() + 4000).toISOString();
    await start({
      env: { APPROVALS: "on" },
      script: (body) => {
        const last = lastMessage(body);
        if (last.role === "tool") return { content: "Reminder set." };
        if (String(last.content).includes("in a few seconds")) return { toolCalls: [{ name: "schedule", args: { name: "Stretch", prompt: "Remind me to stretch.", at } }] };
        return { content: "Time to stretch!" };
      },
    });
    const chatting = postJson(`${wb!.url}/api/chat`, { message: "Remind me in a few seconds to stretch.", stream: false });
    await expect.poll(async () => (await json<{ pending: Array<{ id: string; tool: string; subject: string }> }>(fetch(`${wb!.url}/api/approvals`))).pending, { timeout: 8000 }).toHaveLength(1);
    const [card] = (await json<{ pending: Array<{ id: string; tool: string; subject: string }> }>(fetch(`${wb!.url}/api/approvals`))).pending;
    expect(card.tool).toBe("schedule");
    expect(card.subject).toMatch(/^Stretch\nonce, at .+\nNext: .+\nRuns in: a new session each time\nPrompt: Remind me to stretch\.$/);
    const decided = await postJson(`${wb!.url}/api/approvals/${card.id}`, { decision: "approve" }, { headers: { origin: wb!.url } });
    expect(decided.status).toBe(200);
    expect((await chatting).status).toBe(200);

    const { tasks } = await json<TasksReply>(fetch(`${wb!.url}/api/tasks`));
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ name: "Stretch", created_by: "agent", schedule: { kind: "once", at } });
    await expect.poll(async () => (await runsOf(tasks[0].id))[0]?.outcome, { timeout: 10_000 }).toBe("done");
    expect((await runsOf(tasks[0].id))[0].detail).toBe("Time to stretch!");
  });

  it("a schedule that is not one goes back to the model before anyone is asked", async () => {
    await start({
      env: { APPROVALS: "on" },
      script: (body) => (lastMessage(body).role === "tool" ? { content: String(lastMessage(body).content) } : { toolCalls: [{ name: "schedule", args: { name: "Bad", prompt: "x", cron: "99 * * * *" } }] }),
    });
    const events = await chat(wb!, "schedule something");
    expect(JSON.stringify(events)).toMatch(/invalid arguments for schedule: Invalid cron expression \\"99 \* \* \* \*\\"/);
    expect((await json<TasksReply>(fetch(`${wb!.url}/api/tasks`))).tasks).toHaveLength(0);
  });
});

describe("bad input", () => {
  it("is refused with the right status and the reason", async () => {
    await start();
    const base = { name: "T", prompt: "p", schedule: { kind: "cron", expr: "0 9 * * *" } };
    const reason = async (body: unknown) => {
      const reply = await create(body as Record<string, unknown>);
      return [reply.status, ((await reply.json()) as { error: string }).error] as const;
    };
    expect(await reason({ ...base, schedule: { kind: "cron", expr: "0 25 * * *" } })).toEqual([400, expect.stringMatching(/^Invalid cron expression "0 25 \* \* \*": .*hour/)]);
    expect(await reason({ ...base, schedule: { kind: "cron", expr: "0 9 * * *", tz: "Mars/Olympus" } })).toEqual([400, expect.stringContaining('Unknown time zone "Mars/Olympus"')]);
    expect(await reason({ ...base, schedule: { kind: "once", at: "2020-01-01T00:00:00Z" } })).toEqual([400, expect.stringContaining("has passed")]);
    expect(await reason({ ...base, profile: "nope" })).toEqual([400, expect.stringContaining('Unknown model profile: "nope"')]);
    expect(await reason({ ...base, session: "20990101-000000-abcdef" })).toEqual([400, expect.stringContaining('Unknown session: "20990101-000000-abcdef"')]);
    expect((await reason({ ...base, prompt: "x".repeat(wb!.config.limits.messageChars + 1) }))[0]).toBe(413);
    expect((await reason({ ...base, schedule: { kind: "weekly" } }))[0]).toBe(400);
    expect((await postJson(`${wb!.url}/api/tasks/preview`, { schedule: { kind: "cron", expr: "bad" } })).status).toBe(400);
    expect((await fetch(`${wb!.url}/api/tasks/task_000000`)).status).toBe(404);
    expect((await postJson(`${wb!.url}/api/tasks/task_000000/run`, {})).status).toBe(404);
    // The form's preview: the next five times.
    const preview = await json<{ next: string[] }>(postJson(`${wb!.url}/api/tasks/preview`, { schedule: { kind: "cron", expr: "0 9 * * *", tz: "Asia/Tokyo" } }));
    expect(preview.next).toHaveLength(5);
    expect(preview.next.every((t) => t.endsWith("T00:00:00.000Z"))).toBe(true);
  });

  it("more than 200 tasks is a 429", async () => {
    await start();
    const tasks = Array.from({ length: 200 }, (_, i) => ({ id: `task_${i.toString(16).padStart(6, "0")}`, name: `t${i}`, prompt: "p", schedule: { kind: "cron", expr: "0 9 1 1 *" }, enabled: false, created_at: new Date().toISOString() }));
    await writeFile(join(wb!.dataRoot, "TASKS.json"), JSON.stringify({ version: 1, tasks }));
    await expect.poll(async () => (await json<TasksReply>(fetch(`${wb!.url}/api/tasks`))).tasks.length, { timeout: 8000 }).toBe(200);
    const reply = await create({ name: "one more", prompt: "p", schedule: { kind: "cron", expr: "0 9 * * *" } });
    expect(reply.status).toBe(429);
  });

  it("a malformed TASKS.json: the server starts, the problem shows, the file is left as it is, the last good tasks keep running", async () => {
    const dataRoot = await mkdtemp(join(tmpdir(), "moc-tasks-"));
    try {
      await writeFile(join(dataRoot, "TASKS.json"), "{ not json");
      await start({ dataRoot });
      const health = await json<{ tasks: { problem: string | null } }>(fetch(`${wb!.url}/api/health`));
      expect(health.tasks.problem).toMatch(/^TASKS\.json is not valid JSON .*; the last good tasks keep running until it is fixed$/);
      expect((await json<TasksReply>(fetch(`${wb!.url}/api/tasks`))).problem).toBe(health.tasks.problem);
      // Writing over it is refused; the file stays as the user left it.
      expect((await create({ name: "x", prompt: "p", schedule: { kind: "every", seconds: 60 } })).status).toBe(409);
      expect(await readFile(join(dataRoot, "TASKS.json"), "utf8")).toBe("{ not json");

      // Fixed, with a task every second; then broken again: the task keeps running.
      const good = { version: 1, tasks: [{ id: "task_abcdef", name: "Keeps going", prompt: "p", schedule: { kind: "every", seconds: 1 }, created_at: new Date().toISOString() }] };
      await writeFile(join(dataRoot, "TASKS.json"), JSON.stringify(good));
      await expect.poll(async () => (await json<TasksReply>(fetch(`${wb!.url}/api/tasks`))).problem, { timeout: 8000 }).toBeNull();
      await writeFile(join(dataRoot, "TASKS.json"), JSON.stringify({ ...good, tasks: [{ ...good.tasks[0], schedule: { kind: "sometimes" } }] }));
      await expect.poll(async () => (await json<TasksReply>(fetch(`${wb!.url}/api/tasks`))).problem, { timeout: 8000 }).toMatch(/^TASKS\.json: tasks\.0\.schedule/);
      const count = (await runsOf("task_abcdef")).length;
      await expect.poll(async () => (await runsOf("task_abcdef")).length, { timeout: 8000 }).toBeGreaterThan(count);
    } finally {
      await wb?.close();
      wb = undefined;
      await rm(dataRoot, { recursive: true, force: true });
    }
  });
});
