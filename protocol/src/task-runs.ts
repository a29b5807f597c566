/**
 * Scheduled tasks' runs (`TASKS.json`, issue 40): one record per time a task ran, was skipped or was
 * cut short. Shared by the tasks API and the UI event that tells every open page of a run's end.
 */
import { z } from "zod";

/** What came of a run. `quiet`: the heartbeat answered `HEARTBEAT_OK` (nothing needs the user). */
export const taskRunOutcomeSchema = z.enum(["running", "done", "quiet", "failed", "stopped", "skipped", "aborted"]);
export type TaskRunOutcome = z.infer<typeof taskRunOutcomeSchema>;

export const taskRunSchema = z
  .object({
    id: z.string(),
    task_id: z.string(),
    /** What started it: its schedule, Run now, or the start of the server (a time missed while it was down). */
    trigger: z.enum(["schedule", "manual", "catch_up"]),
    /** The scheduled time it ran for (ISO); null for Run now. */
    scheduled_for: z.string().nullable(),
    started_at: z.string(),
    ended_at: z.string().optional(),
    outcome: taskRunOutcomeSchema,
    /** The session the run's turn went to. */
    session_id: z.string().optional(),
    /** Why it failed or was skipped, or the answer's first words. */
    detail: z.string().optional(),
  })
  .meta({ id: "TaskRun" });
export type TaskRun = z.infer<typeof taskRunSchema>;
