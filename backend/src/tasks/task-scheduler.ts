/**
 * Runs the tasks of `TASKS.json` and the heartbeat on their schedules. Each run is a turn like any
 * other (ChatTurns), into a new session or the task's own; the scheduler follows its event stream to
 * record the outcome and tell every open page. A run that would overlap the task's previous one is
 * skipped (recorded); a time missed while the workbench was down runs once at start if it is within
 * MISSED_GRACE_MS, and is recorded as skipped otherwise.
 */
import { randomBytes } from "node:crypto";
import {
  type Consolidation,
  DEFAULT_PROFILE,
  CONSOLIDATION_BUDGET_CHARS,
  CONSOLIDATION_DEFAULT_AT,
  CONSOLIDATION_TASK_ID,
  type ConsolidationSettings,
  type Heartbeat,
  HEARTBEAT_TASK_ID,
  type HeartbeatSettings,
  isBuiltinTool,
  MAX_TASKS,
  type Task,
  type TaskFields,
  type TaskFileEntry,
  type TaskRun,
  type TaskSchedule,
  type TasksReply,
} from "@mini-openclaw/protocol";
import type { Config } from "../config/config.js";
import { UserError } from "../lib/user-error.js";
import type { SessionStore } from "../sessions/session-store.js";
import { assertSessionId } from "../sessions/session-id.js";
import { TASKS_FILE } from "../settings/settings-files.js";
import type { LiveTurn } from "../turns/live-turn.js";
import type { Hooks } from "../hooks/hooks.js";
import type { TurnRegistry } from "../turns/turn-registry.js";
import type { UiEventBus } from "../ui-events/ui-event-bus.js";
import type { TurnRequest } from "../chat/prepare-turn.js";
import { HEARTBEAT_FILE, HEARTBEAT_MINUTES, heartbeatPrompt, inQuietHours, isHeartbeatOk } from "./heartbeat.js";
import type { TaskRunLog } from "./task-run-log.js";
import { checkSchedule, lastMissed, nextTime, serverTimeZone } from "../schedules/task-schedule.js";
import type { TasksFileStore } from "./tasks-file.js";
import { TaskHosts } from "./task-hosts.js";
import { HeartbeatChecklist } from "./heartbeat-checklist.js";
import type { MemoryHelper } from "../proposals/memory-helper.js";

/** How long after a missed time a workbench that was down still runs it at start (once). */
export const MISSED_GRACE_MS = 60 * 60 * 1000;
/** An approval in an unattended run waits this long by default, then is denied. */
export const APPROVAL_WAIT_SECONDS = 600;
/** setTimeout's longest delay; a later time is reached in steps. */
const MAX_DELAY_MS = 2 ** 30;

/** What the scheduler runs: a task of the file, or the heartbeat (made from its settings). */
interface Runnable {
  id: string;
  name: string;
  schedule: TaskSchedule;
  anchor: number;
  entry: TaskFileEntry | null;
}

export interface TaskSchedulerDeps {
  config: Config;
  file: TasksFileStore;
  runs: TaskRunLog;
  sessions: Pick<SessionStore, "exists" | "append">;
  models: { has(name: string): boolean; names(): string[]; helper(kind: "memory"): string | null };
  turns: Pick<TurnRegistry, "shutdown" | "shuttingDown">;
  ui: UiEventBus;
  /** Starts a turn as the chat route does (a plain HTTP error for what cannot run). */
  startTurn: (request: TurnRequest) => Promise<LiveTurn>;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** The user's hooks: TaskRun and Notification when a run ends. */
  hooks?: Pick<Hooks, "run">;
  /** The memory consolidation's turns and what their answers become. */
  memory?: MemoryHelper;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(6).toString("hex")}`;
const iso = (ms: number) => new Date(ms).toISOString();
const titleTime = (ms: number) => {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

export class TaskScheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Runs going now, by task: a run is held here from the moment it is decided, so none overlaps. */
  private readonly active = new Map<string, TaskRun>();
  private closed = false;
  /** The time each task last fired for (its schedule's time), for the minimum interval. */
  private readonly lastFired = new Map<string, number>();
  /** When the scheduled runs of the last minute started (all tasks), for the runs-a-minute bound. */
  private readonly recentStarts: number[] = [];
  /** The hosts a person let each task's runs fetch from. */
  private readonly hosts: TaskHosts;
  /** The heartbeat's checklist as the user accepted it (a tool's change waits for them). */
  private readonly checklist: HeartbeatChecklist;
  /** Where the heartbeat's interval counts from (its last run, or when it was switched on). */
  private heartbeatAnchor = Date.now();

  constructor(private readonly deps: TaskSchedulerDeps) {
    this.hosts = new TaskHosts(deps.config.dataRoot);
    this.checklist = new HeartbeatChecklist(deps.config.dataRoot, (file) => {
      deps.ui.toast({ kind: "standing_order_changed", file }, "warning");
      deps.ui.publish({ type: "refresh", target: "tasks" });
    });
  }

  /** At start: runs a crash cut are recorded as aborted, missed times are caught up (once each task), timers are set. */
  async start(): Promise<void> {
    await this.deps.runs.load();
    await this.hosts.load();
    await this.checklist.start();
    this.heartbeatAnchor = this.deps.runs.lastScheduled(HEARTBEAT_TASK_ID) ?? Date.now();
    const now = Date.now();
    for (const task of this.runnables()) {
      const after = Math.max(this.deps.runs.lastScheduled(task.id) ?? task.anchor, task.anchor);
      const missed = lastMissed(task.schedule, after, now, task.anchor);
      if (missed === null) continue;
      if (now - missed <= MISSED_GRACE_MS) void this.run(task, "catch_up", missed);
      else await this.skip(task, "catch_up", missed, `Missed while the workbench was down, more than ${MISSED_GRACE_MS / 60_000} minutes before it started again.`);
    }
    this.armAll();
  }

  /** The file changed (by hand or through the API): every timer is set again from it. */
  changed(): void {
    if (!this.closed) this.armAll();
    this.deps.ui.publish({ type: "refresh", target: "tasks" });
  }

  /** Timers stop; running runs are stopped and recorded as aborted. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await this.deps.turns.shutdown();
  }

  private heartbeatSettings(): HeartbeatSettings {
    return this.deps.file.value.heartbeat ?? { enabled: false };
  }

  private heartbeatRunnable(): Runnable {
    const settings = this.heartbeatSettings();
    return { id: HEARTBEAT_TASK_ID, name: "Heartbeat", schedule: { kind: "every", seconds: (settings.every_minutes ?? HEARTBEAT_MINUTES) * 60 }, anchor: this.heartbeatAnchor, entry: null };
  }

  private consolidationSettings(): ConsolidationSettings {
    return this.deps.file.value.consolidation ?? { enabled: false };
  }

  /** Daily at its time (the server's clock); its interval counts from when it was switched on. */
  private consolidationRunnable(): Runnable {
    const [hours, minutes] = (this.consolidationSettings().at ?? CONSOLIDATION_DEFAULT_AT).split(":").map(Number);
    return { id: CONSOLIDATION_TASK_ID, name: "Memory consolidation", schedule: { kind: "cron", expr: `${minutes} ${hours} * * *` }, anchor: 0, entry: null };
  }

  private runnableOf(entry: TaskFileEntry): Runnable {
    return { id: entry.id, name: entry.name, schedule: entry.schedule, anchor: Date.parse(entry.updated_at ?? entry.created_at), entry };
  }

  /** What runs on a schedule now: the enabled tasks, and the heartbeat when it is on. */
  private runnables(): Runnable[] {
    const tasks = this.deps.file.value.tasks.filter((t) => t.enabled !== false).map((t) => this.runnableOf(t));
    if (this.heartbeatSettings().enabled) tasks.push(this.heartbeatRunnable());
    if (this.consolidationSettings().enabled && this.deps.memory) tasks.push(this.consolidationRunnable());
    return tasks;
  }

  private nextRun(task: Runnable, now = Date.now()): number | null {
    try {
      const after = Math.max(now, this.deps.runs.lastScheduled(task.id) ?? Number.NEGATIVE_INFINITY);
      return nextTime(task.schedule, after, task.anchor);
    } catch {
      return null; // a schedule edited by hand into something croner refuses: it does not run
    }
  }

  private armAll(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const task of this.runnables()) this.arm(task, Date.now());
  }

  private arm(task: Runnable, after: number): void {
    let at: number | null;
    // However the file's schedule reads (edited by hand), a run is at least the minimum interval after the last.
    const floor = (this.lastFired.get(task.id) ?? Number.NEGATIVE_INFINITY) + this.deps.config.tasks.minIntervalSeconds * 1000 - 1;
    try {
      at = nextTime(task.schedule, Math.max(after, floor), task.anchor);
    } catch (err) {
      this.deps.log.warn({ task: task.id, err: (err as Error).message }, "task schedule not usable");
      return;
    }
    if (at === null) return;
    const fire = () => {
      if (this.closed) return;
      const wait = at! - Date.now();
      if (wait > 0) {
        this.timers.set(task.id, setTimeout(fire, Math.min(wait, MAX_DELAY_MS)));
        return;
      }
      this.timers.delete(task.id);
      // The task as the file holds it now (it may have changed since the timer was set).
      const current = this.runnables().find((t) => t.id === task.id);
      if (!current) return;
      if (current.id === HEARTBEAT_TASK_ID && inQuietHours(this.heartbeatSettings(), new Date())) {
        this.arm(current, at!);
        return;
      }
      void this.run(current, "schedule", at!);
      this.arm(current, at!);
    };
    this.timers.set(task.id, setTimeout(fire, Math.min(Math.max(0, at - Date.now()), MAX_DELAY_MS)));
  }

  private async record(run: TaskRun, taskName: string, notify: boolean, waitingApproval = false): Promise<void> {
    await this.deps.runs.put(run).catch((err) => this.deps.log.warn({ err: (err as Error).message }, "task run not recorded"));
    this.deps.ui.publish({ type: "task_run", task_name: taskName, run, waiting_approval: waitingApproval, notify });
    this.deps.ui.publish({ type: "refresh", target: "tasks" });
    if (run.outcome !== "running") void this.runHooks(run, taskName, notify);
  }

  /** A run ended: the user's TaskRun hooks, and their Notification hooks when the run is news. Never awaited by the run. */
  private async runHooks(run: TaskRun, taskName: string, notify: boolean): Promise<void> {
    const hooks = this.deps.hooks;
    if (!hooks) return;
    const sessionId = run.session_id ? { sessionId: run.session_id } : {};
    const fields = { task_id: run.task_id, task_name: taskName, run_id: run.id, trigger: run.trigger, outcome: run.outcome, ...(run.detail ? { detail: run.detail } : {}) };
    await hooks.run({ event: "TaskRun", names: [taskName], fields, ...sessionId });
    if (notify) await hooks.run({ event: "Notification", names: ["task_run"], fields: { notification_type: "task_run", message: `The task "${taskName}" finished: ${run.outcome}`, ...fields }, ...sessionId });
  }

  private async skip(task: Runnable, trigger: TaskRun["trigger"], scheduledFor: number | null, detail: string): Promise<TaskRun> {
    const now = iso(Date.now());
    const run: TaskRun = { id: newId("run"), task_id: task.id, trigger, scheduled_for: scheduledFor === null ? null : iso(scheduledFor), started_at: now, ended_at: now, outcome: "skipped", detail };
    await this.record(run, task.name, false);
    return run;
  }

  /** The session a run goes to: the task's own, the heartbeat's last, or null for a new one. */
  private async sessionFor(task: Runnable): Promise<string | null> {
    if (task.id === HEARTBEAT_TASK_ID) {
      const last = this.deps.runs.runs(HEARTBEAT_TASK_ID).find((r) => r.session_id)?.session_id;
      return last && (await this.deps.sessions.exists(last)) ? last : null;
    }
    const session = task.entry?.session;
    if (!session) return null;
    if (!(await this.deps.sessions.exists(session))) throw new UserError("invalid_request", `The task's session ${session} no longer exists.`);
    return session;
  }

  /** Starts one run of a task (or records it skipped when its previous run still goes). */
  private async run(task: Runnable, trigger: TaskRun["trigger"], scheduledFor: number | null): Promise<TaskRun> {
    if (scheduledFor !== null) this.lastFired.set(task.id, Math.max(scheduledFor, this.lastFired.get(task.id) ?? scheduledFor));
    if (this.active.has(task.id)) return this.skip(task, trigger, scheduledFor, "Its previous run was still going.");
    // Runs a person did not ask for, across all tasks, are bounded per minute ("Run now" is a person's).
    if (trigger !== "manual") {
      const now = Date.now();
      while (this.recentStarts.length > 0 && now - this.recentStarts[0] >= 60_000) this.recentStarts.shift();
      const { runsPerMinute } = this.deps.config.tasks;
      if (this.recentStarts.length >= runsPerMinute) {
        return this.skip(task, trigger, scheduledFor, `Over the limit of ${runsPerMinute} scheduled runs a minute across all tasks (TASK_RUNS_PER_MINUTE).`);
      }
      this.recentStarts.push(now);
    }
    const run: TaskRun = { id: newId("run"), task_id: task.id, trigger, scheduled_for: scheduledFor === null ? null : iso(scheduledFor), started_at: iso(Date.now()), outcome: "running" };
    this.active.set(task.id, run);
    const entry = task.entry;
    const heartbeat = task.id === HEARTBEAT_TASK_ID;
    let live: LiveTurn;
    try {
      if (task.id === CONSOLIDATION_TASK_ID) live = await this.startConsolidation();
      else {
        const profile = heartbeat ? this.heartbeatSettings().profile : entry?.profile;
        live = await this.deps.startTurn({
          message: heartbeat ? heartbeatPrompt(await this.checklist.forRun()) : entry!.prompt,
          session_id: await this.sessionFor(task),
          ...(profile ? { model: profile } : {}),
          ...(entry?.tools ? { allowed_tools: entry.tools } : {}),
          unattended: { deny: entry?.unattended_approvals === "deny", timeoutSeconds: entry?.approval_timeout_seconds ?? APPROVAL_WAIT_SECONDS, hosts: this.hosts.of(task.id) },
        });
      }
    } catch (err) {
      this.active.delete(task.id);
      const busy = err instanceof UserError && err.code === "conflict";
      const ended: TaskRun = { ...run, ended_at: iso(Date.now()), outcome: busy ? "skipped" : "failed", detail: (err as Error).message };
      await this.record(ended, task.name, !busy);
      return ended;
    }
    const started: TaskRun = { ...run, session_id: live.sessionId };
    this.active.set(task.id, started);
    // Subscribed before anything is awaited: a turn that ends while the start is recorded still ends the run
    // (its end is recorded after its start, never under it).
    let markRecorded!: () => void;
    const recorded = new Promise<void>((resolve) => (markRecorded = resolve));
    live.subscribe({
      event: ({ event }) => {
        if (event.type === "session" && event.created) {
          const title = `${task.name} · ${titleTime(scheduledFor ?? Date.now())}`;
          void this.deps.sessions.append(live.sessionId, { type: "meta", ts: iso(Date.now()), title }).catch(() => {});
        } else if (event.type === "approval_request") {
          this.deps.ui.publish({ type: "task_run", task_name: task.name, run: started, waiting_approval: true, notify: true });
        }
      },
      end: () => void recorded.then(() => this.finish(task, started, live)),
    });
    await this.record(started, task.name, false);
    markRecorded();
    return started;
  }

  /**
   * A consolidation run: a helper turn with no tools, into a new session, reading what is new since the
   * last run that succeeded (a failed run's material is read again by the next, never retried at once).
   */
  private async startConsolidation(): Promise<LiveTurn> {
    const settings = this.consolidationSettings();
    const since = this.deps.runs.runs(CONSOLIDATION_TASK_ID).find((r) => r.outcome === "done")?.started_at ?? null;
    const turn = await this.deps.memory!.consolidationTurn(since, settings.budget_chars ?? CONSOLIDATION_BUDGET_CHARS);
    const profile = this.deps.models.helper("memory");
    return this.deps.startTurn({ ...turn, session_id: null, ...(profile ? { model: profile } : {}), unattended: { deny: true, timeoutSeconds: 1 } });
  }

  /** The run's turn ended: its outcome from its last event, recorded and told. */
  private async finish(task: Runnable, run: TaskRun, live: LiveTurn): Promise<void> {
    const last = live.events.findLast((e) => e.event.type === "final" || e.event.type === "error")?.event;
    let outcome: TaskRun["outcome"] = "done";
    let detail: string | undefined;
    if (last?.type === "final" && task.id === CONSOLIDATION_TASK_ID) {
      const settled = await this.deps.memory!.settle(live, "consolidation").catch((err: Error) => ({ ok: false, detail: `Its proposals were not stored: ${err.message}` }));
      outcome = settled.ok ? "done" : "failed";
      detail = settled.detail.slice(0, 1000);
    } else if (last?.type === "final") {
      detail = last.content.slice(0, 300);
      if (task.id === HEARTBEAT_TASK_ID && isHeartbeatOk(last.content)) outcome = "quiet";
    } else if (last?.type === "error") {
      detail = last.message.slice(0, 300);
      outcome = last.code !== "aborted" ? "failed" : this.closed || this.deps.turns.shuttingDown ? "aborted" : "stopped";
    }
    this.active.delete(task.id);
    await this.record({ ...run, ended_at: iso(Date.now()), outcome, ...(detail ? { detail } : {}) }, task.name, outcome === "done" || outcome === "failed");
  }

  // ---- what the API asks ----

  private entry(id: string): TaskFileEntry {
    const entry = this.deps.file.value.tasks.find((t) => t.id === id);
    if (!entry) throw new UserError("not_found", `No such task: ${id.slice(0, 64)}`);
    return entry;
  }

  private shown(entry: TaskFileEntry): Task {
    const enabled = entry.enabled !== false;
    const next = enabled ? this.nextRun(this.runnableOf(entry)) : null;
    return { ...entry, enabled, next_run: next === null ? null : iso(next), last_run: this.deps.runs.last(entry.id), running: this.active.has(entry.id) };
  }

  task(id: string): Task {
    return this.shown(this.entry(id));
  }

  async heartbeat(): Promise<Heartbeat> {
    const settings = this.heartbeatSettings();
    const change = await this.checklist.change();
    const next = settings.enabled ? this.nextRun(this.heartbeatRunnable()) : null;
    const last = this.deps.runs.last(HEARTBEAT_TASK_ID);
    return {
      enabled: settings.enabled,
      every_minutes: settings.every_minutes ?? HEARTBEAT_MINUTES,
      quiet_hours: settings.quiet_hours ?? null,
      ...(settings.profile ? { profile: settings.profile } : {}),
      checklist: HEARTBEAT_FILE,
      session_id: this.deps.runs.runs(HEARTBEAT_TASK_ID).find((r) => r.session_id)?.session_id ?? null,
      next_run: next === null ? null : iso(next),
      last_run: last,
      running: this.active.has(HEARTBEAT_TASK_ID),
      checklist_change: change,
    };
  }

  async reply(): Promise<TasksReply> {
    return { tasks: this.deps.file.value.tasks.map((t) => this.shown(t)), heartbeat: await this.heartbeat(), consolidation: this.consolidation(), file: TASKS_FILE, problem: this.deps.file.problem, time_zone: serverTimeZone() };
  }

  /** The shortest time a task's runs may be apart (TASK_MIN_INTERVAL_SECONDS). */
  get minIntervalSeconds(): number {
    return this.deps.config.tasks.minIntervalSeconds;
  }

  /** The user's decision on a changed heartbeat checklist. */
  async decideChecklist(decision: "accept" | "reject", sha256: string): Promise<Heartbeat> {
    await this.checklist.decide(decision, sha256);
    this.deps.ui.publish({ type: "refresh", target: "tasks" });
    return this.heartbeat();
  }

  /** Files a tool call changed: the heartbeat's checklist among them is told to the user at once. */
  noticeChanges(paths: string[]): void {
    if (paths.includes(HEARTBEAT_FILE)) void this.checklist.change().catch(() => {});
  }

  /** The user saved the checklist through the workbench: what the heartbeat runs from now on. */
  userSavedChecklist(text: string): Promise<void> {
    return this.checklist.userSaved(text);
  }

  runs(id: string): TaskRun[] {
    if (id !== HEARTBEAT_TASK_ID && id !== CONSOLIDATION_TASK_ID) this.entry(id);
    return this.deps.runs.runs(id);
  }

  /** The sessions runs made, each with its task (a run into a session the task names, a chat of the user's, made none). */
  runSessions(): Map<string, string> {
    const made = new Map<string, string>();
    const named = new Map(this.deps.file.value.tasks.map((t) => [t.id, t.session]));
    for (const id of [...named.keys(), HEARTBEAT_TASK_ID, CONSOLIDATION_TASK_ID]) {
      for (const run of this.deps.runs.runs(id)) if (run.session_id && run.session_id !== named.get(id)) made.set(run.session_id, id);
    }
    return made;
  }

  /** Checks a task's fields as the API takes them: 400 naming what is wrong, 413 for the prompt. */
  private async check(fields: TaskFields): Promise<void> {
    const { config, models, sessions } = this.deps;
    if (fields.prompt.length > config.limits.messageChars) throw new UserError("too_large", `The prompt is ${fields.prompt.length} characters, over the ${config.limits.messageChars} that chat takes.`);
    checkSchedule(fields.schedule, Date.now(), config.tasks.minIntervalSeconds);
    if (fields.profile !== undefined && !models.has(fields.profile)) throw new UserError("invalid_request", `Unknown model profile: "${fields.profile.slice(0, 64)}". The profiles are: ${models.names().join(", ")}.`);
    if (fields.session) {
      const id = assertSessionId(fields.session);
      if (!(await sessions.exists(id))) throw new UserError("invalid_request", `Unknown session: "${id}".`);
    }
    const unknown = (fields.tools ?? []).find((tool) => !isBuiltinTool(tool) && !tool.startsWith("mcp__"));
    if (unknown !== undefined) throw new UserError("invalid_request", `Unknown tool in 'tools': "${unknown.slice(0, 100)}".`);
  }

  async create(fields: TaskFields, by: { agent: boolean; session?: string } = { agent: false }): Promise<Task> {
    await this.check(fields);
    const now = iso(Date.now());
    const entry: TaskFileEntry = { id: newId("task"), ...fields, name: fields.name.trim(), created_at: now, ...(by.agent ? { created_by: "agent" as const, ...(by.session ? { created_in: by.session } : {}) } : {}) };
    await this.deps.file.write((file) => {
      if (file.tasks.length >= MAX_TASKS) throw new UserError("limit_reached", `There are ${file.tasks.length} tasks, the most one workbench keeps (${MAX_TASKS}); delete some first.`);
      return { ...file, tasks: [...file.tasks, entry] };
    });
    this.deps.log.info({ task: entry.id, name: entry.name, by: by.agent ? "agent" : "user" }, "task created");
    return this.task(entry.id);
  }

  async update(id: string, fields: TaskFields): Promise<Task> {
    const old = this.entry(id);
    await this.check(fields);
    // A new schedule, or switching it on again, starts afresh: nothing before now is caught up.
    const restarted = JSON.stringify(old.schedule) !== JSON.stringify(fields.schedule) || (old.enabled === false && fields.enabled !== false);
    const { created_at, created_by, created_in } = old;
    const entry: TaskFileEntry = { id, ...fields, name: fields.name.trim(), created_at, ...(created_by ? { created_by } : {}), ...(created_in ? { created_in } : {}), ...(restarted ? { updated_at: iso(Date.now()) } : old.updated_at ? { updated_at: old.updated_at } : {}) };
    await this.deps.file.write((file) => ({ ...file, tasks: file.tasks.map((t) => (t.id === id ? entry : t)) }));
    return this.task(id);
  }

  async remove(id: string): Promise<void> {
    this.entry(id);
    await this.deps.file.write((file) => ({ ...file, tasks: file.tasks.filter((t) => t.id !== id) }));
    this.deps.runs.forget(id);
    this.hosts.forget(id);
  }

  async setHeartbeat(settings: HeartbeatSettings): Promise<Heartbeat> {
    if (settings.profile !== undefined && !this.deps.models.has(settings.profile)) throw new UserError("invalid_request", `Unknown model profile: "${settings.profile.slice(0, 64)}".`);
    if (settings.enabled && !this.heartbeatSettings().enabled) this.heartbeatAnchor = Date.now();
    await this.deps.file.write((file) => ({ ...file, heartbeat: settings }));
    return this.heartbeat();
  }

  consolidation(): Consolidation {
    const settings = this.consolidationSettings();
    const next = settings.enabled && this.deps.memory ? this.nextRun(this.consolidationRunnable()) : null;
    return {
      enabled: settings.enabled,
      at: settings.at ?? CONSOLIDATION_DEFAULT_AT,
      profile: this.deps.models.helper("memory") ?? DEFAULT_PROFILE,
      budget_chars: settings.budget_chars ?? CONSOLIDATION_BUDGET_CHARS,
      next_run: next === null ? null : iso(next),
      last_run: this.deps.runs.last(CONSOLIDATION_TASK_ID),
      running: this.active.has(CONSOLIDATION_TASK_ID),
    };
  }

  async setConsolidation(settings: ConsolidationSettings): Promise<Consolidation> {
    await this.deps.file.write((file) => ({ ...file, consolidation: settings }));
    return this.consolidation();
  }

  /** Run now: a task (enabled or not), the heartbeat or the consolidation. */
  runNow(id: string): Promise<TaskRun> {
    if (id === CONSOLIDATION_TASK_ID && !this.deps.memory) throw new UserError("not_found", "The memory consolidation is not available here.");
    const task = id === HEARTBEAT_TASK_ID ? this.heartbeatRunnable() : id === CONSOLIDATION_TASK_ID ? this.consolidationRunnable() : this.runnableOf(this.entry(id));
    return this.run(task, "manual", null);
  }
}
