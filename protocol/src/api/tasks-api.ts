/**
 * Scheduled tasks and the heartbeat (`TASKS.json` at the top of the data root, issue 40): a task is a
 * prompt that runs as a turn on a schedule, into a new session per run or one named session.
 */
import { z } from "zod";
import { taskRunSchema } from "../task-runs.js";
import { errorReplies, operation } from "./operation.js";

/** Tasks one workbench keeps. */
export const MAX_TASKS = 200;
/** The heartbeat's id where a task's would be (its runs, Run now). */
export const HEARTBEAT_TASK_ID = "heartbeat";
/** The memory consolidation's id where a task's would be (its runs, Run now). */
export const CONSOLIDATION_TASK_ID = "consolidation";
/** What a consolidation run reads at most by default (characters, newest first). */
export const CONSOLIDATION_BUDGET_CHARS = 200_000;
/** When the consolidation runs each day unless the user sets a time. */
export const CONSOLIDATION_DEFAULT_AT = "03:00";

/**
 * When a task runs: a cron expression (five fields, or six with seconds first) in a time zone (absent:
 * the server's), every N seconds, or once at an ISO date.
 */
export const taskScheduleSchema = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("cron"), expr: z.string().min(1).max(200), tz: z.string().min(1).max(100).optional() }),
    z.strictObject({ kind: z.literal("every"), seconds: z.number().int().min(1).max(366 * 86_400) }),
    z.strictObject({ kind: z.literal("once"), at: z.string().min(1).max(40) }),
  ])
  .meta({ id: "TaskSchedule" });
export type TaskSchedule = z.infer<typeof taskScheduleSchema>;

/** What the user (or the agent's `schedule` tool) sets of a task. */
export const taskFieldsSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  /** The message each run sends (the chat's size limit applies: 413). */
  prompt: z.string().min(1).max(1_000_000),
  schedule: taskScheduleSchema,
  /** The session every run goes to; absent or null: a new session per run, titled with the task's name and the time. */
  session: z.string().max(64).nullable().optional(),
  /** The model profile its runs use (absent: the session's, or the default). */
  profile: z.string().max(64).optional(),
  /** The only tools its runs offer (absent: all of them). */
  tools: z.array(z.string().max(200)).max(100).optional(),
  enabled: z.boolean().optional(),
  /** An approval in a run nobody watches: wait (for `approval_timeout_seconds`, then denied) or deny at once. */
  unattended_approvals: z.enum(["wait", "deny"]).optional(),
  approval_timeout_seconds: z.number().int().min(1).max(86_400).optional(),
});
export type TaskFields = z.infer<typeof taskFieldsSchema>;

/** A task as `TASKS.json` holds it. */
export const taskFileEntrySchema = taskFieldsSchema.extend({
  id: z.string().regex(/^task_[0-9a-f]{6,32}$/),
  created_at: z.string(),
  /** Its schedule or switch last changed: an interval counts from here, and nothing missed before it is caught up. */
  updated_at: z.string().optional(),
  /** The agent's `schedule` tool made it (from this session), or the user. */
  created_by: z.enum(["user", "agent"]).optional(),
  created_in: z.string().max(64).optional(),
});
export type TaskFileEntry = z.infer<typeof taskFileEntrySchema>;

/** `HH:MM` on the server's clock. */
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "a time of day, HH:MM");

export const heartbeatSettingsSchema = z
  .strictObject({
    enabled: z.boolean(),
    every_minutes: z.number().int().min(1).max(1440).optional(),
    /** No heartbeat between these times (server's clock; `from` after `to` spans midnight). */
    quiet_hours: z.strictObject({ from: clockTime, to: clockTime }).nullable().optional(),
    profile: z.string().max(64).optional(),
  })
  .meta({ id: "HeartbeatSettings" });
export type HeartbeatSettings = z.infer<typeof heartbeatSettingsSchema>;

/** The daily memory consolidation (issue 55): a helper turn that proposes edits to the memory files, never makes them. */
export const consolidationSettingsSchema = z
  .strictObject({
    enabled: z.boolean(),
    /** When it runs each day (the server's clock). */
    at: clockTime.optional(),
    /** What a run reads at most, newest first (characters). */
    budget_chars: z.number().int().min(1000).max(5_000_000).optional(),
  })
  .meta({ id: "ConsolidationSettings" });
export type ConsolidationSettings = z.infer<typeof consolidationSettingsSchema>;

/** `TASKS.json`. */
export const tasksFileSchema = z.strictObject({
  version: z.literal(1),
  heartbeat: heartbeatSettingsSchema.optional(),
  consolidation: consolidationSettingsSchema.optional(),
  tasks: z.array(taskFileEntrySchema).max(MAX_TASKS),
});
export type TasksFile = z.infer<typeof tasksFileSchema>;

/** A task with what the scheduler knows of it. */
export const taskSchema = taskFileEntrySchema
  .extend({
    enabled: z.boolean(),
    /** The next time it runs (ISO), or null (disabled, a one-time task that ran). */
    next_run: z.string().nullable(),
    last_run: taskRunSchema.nullable(),
    running: z.boolean(),
  })
  .meta({ id: "Task" });
export type Task = z.infer<typeof taskSchema>;

export const heartbeatSchema = z
  .object({
    enabled: z.boolean(),
    every_minutes: z.number().int(),
    quiet_hours: z.object({ from: z.string(), to: z.string() }).nullable(),
    profile: z.string().optional(),
    /** Where its checklist is (data-root relative). */
    checklist: z.string(),
    session_id: z.string().nullable(),
    next_run: z.string().nullable(),
    last_run: taskRunSchema.nullable(),
    running: z.boolean(),
    /**
     * The checklist changed other than by the user's own save (a tool wrote it): a standing order the
     * heartbeat does not run until the user accepts it. `accepted`: what it runs meanwhile (null: none).
     */
    checklist_change: z.object({ accepted: z.string().nullable(), proposed: z.string(), sha256: z.string() }).nullable().optional(),
  })
  .meta({ id: "Heartbeat" });

export const consolidationSchema = z
  .object({
    enabled: z.boolean(),
    at: z.string(),
    /** The profile its turns use: MODELS.json's `helpers.memory`, else the default. */
    profile: z.string(),
    budget_chars: z.number().int(),
    next_run: z.string().nullable(),
    last_run: taskRunSchema.nullable(),
    running: z.boolean(),
  })
  .meta({ id: "Consolidation" });
export type Consolidation = z.infer<typeof consolidationSchema>;

/** `POST /api/tasks/heartbeat/checklist`: the user's decision on a changed checklist (the change named by its hash). */
export const checklistDecisionSchema = z.strictObject({ decision: z.enum(["accept", "reject"]), sha256: z.string().regex(/^[0-9a-f]{64}$/) }).meta({ id: "ChecklistDecision" });
export type ChecklistDecision = z.infer<typeof checklistDecisionSchema>;
export type Heartbeat = z.infer<typeof heartbeatSchema>;

export const tasksReplySchema = z
  .object({
    tasks: z.array(taskSchema),
    heartbeat: heartbeatSchema,
    consolidation: consolidationSchema,
    /** The file, and why it is not used as written (the last good tasks keep running), or null. */
    file: z.string(),
    problem: z.string().nullable(),
    /** The server's time zone (a cron task's default). */
    time_zone: z.string(),
  })
  .meta({ id: "TasksReply" });
export type TasksReply = z.infer<typeof tasksReplySchema>;

export const taskParams = z.object({ id: z.string().max(64) });

export const schedulePreviewReplySchema = z
  .object({
    /** The next times (ISO), at most `count`; fewer when the schedule ends. */
    next: z.array(z.string()),
    time_zone: z.string(),
  })
  .meta({ id: "SchedulePreview" });
export type SchedulePreview = z.infer<typeof schedulePreviewReplySchema>;

export const tasksApi = {
  list: operation({ method: "GET", path: "/api/tasks", summary: "The tasks, the heartbeat, and any problem with TASKS.json", responses: { 200: tasksReplySchema } }),
  create: operation({
    method: "POST",
    path: "/api/tasks",
    summary: "Adds a task (400: a bad schedule, time zone, profile or session, a one-time date in the past; 413: a prompt over the chat limit; 429: over 200 tasks)",
    body: taskFieldsSchema,
    responses: { 201: taskSchema, ...errorReplies(400, 409, 413, 429) },
  }),
  preview: operation({
    method: "POST",
    path: "/api/tasks/preview",
    summary: "The next times a schedule gives (the task form shows them as it is typed); 400 with the parser's reason",
    body: z.object({ schedule: taskScheduleSchema, count: z.number().int().min(1).max(20).optional() }),
    responses: { 200: schedulePreviewReplySchema, ...errorReplies(400) },
  }),
  checklist: operation({
    method: "POST",
    path: "/api/tasks/heartbeat/checklist",
    summary: "Accepts a changed heartbeat checklist (it runs from now on) or rejects it (the file goes back to the accepted one); only from the workbench's own page",
    body: checklistDecisionSchema,
    responses: { 200: heartbeatSchema, ...errorReplies(400, 403, 409) },
  }),
  heartbeat: operation({
    method: "PUT",
    path: "/api/tasks/heartbeat",
    summary: "Switches the heartbeat on or off, and sets its interval, quiet hours and profile",
    body: heartbeatSettingsSchema,
    responses: { 200: heartbeatSchema, ...errorReplies(400, 409) },
  }),
  consolidation: operation({
    method: "PUT",
    path: "/api/tasks/consolidation",
    summary: "Switches the daily memory consolidation on or off, and sets its time and reading budget (its profile is MODELS.json's helpers.memory)",
    body: consolidationSettingsSchema,
    responses: { 200: consolidationSchema, ...errorReplies(400, 409) },
  }),
  read: operation({ method: "GET", path: "/api/tasks/:id", summary: "One task", params: taskParams, responses: { 200: taskSchema, ...errorReplies(404) } }),
  update: operation({
    method: "PUT",
    path: "/api/tasks/:id",
    summary: "Replaces a task's fields (checked as on create)",
    params: taskParams,
    body: taskFieldsSchema,
    responses: { 200: taskSchema, ...errorReplies(400, 404, 409, 413) },
  }),
  remove: operation({ method: "DELETE", path: "/api/tasks/:id", summary: "Deletes a task and its run history", params: taskParams, responses: { 200: z.object({ id: z.string(), deleted: z.literal(true) }), ...errorReplies(404, 409) } }),
  run: operation({
    method: "POST",
    path: "/api/tasks/:id/run",
    summary: "Runs a task (or the heartbeat) now; a run still going means this one is skipped (recorded)",
    params: taskParams,
    responses: { 202: taskRunSchema, ...errorReplies(404) },
  }),
  runs: operation({
    method: "GET",
    path: "/api/tasks/:id/runs",
    summary: "A task's (or the heartbeat's) runs, newest first",
    params: taskParams,
    responses: { 200: z.object({ runs: z.array(taskRunSchema) }), ...errorReplies(404) },
  }),
};
