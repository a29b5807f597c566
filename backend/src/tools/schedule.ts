import type { Task, TaskFields } from "@mini-openclaw/protocol";
import { describeRequest, requestedTask, requestProblem, scheduleRequestSchema, scheduleWords } from "../schedules/schedule-request.js";
import { type CoreTool, defineTool } from "./core-tool.js";

/** What the tool (and a turn) needs of the scheduler. */
export interface TaskCreator {
  create(fields: TaskFields, by: { agent: boolean; session?: string }): Promise<Task>;
  /** Files a tool call changed: one a scheduled run reads as its instructions is a standing-order change for the user. */
  noticeChanges(paths: string[]): void;
}

/**
 * `schedule`: the agent sets a one-time or repeating task for the user ("remind me tomorrow at 9 to
 * …"). Gated like the terminal: the approval card shows the schedule, its next three times and the
 * prompt. The task is marked as made by the agent, in this session.
 */
export const scheduleTool = ({ tasks, sessionId }: { tasks: TaskCreator; sessionId: string }): CoreTool<typeof scheduleRequestSchema> =>
  defineTool({
    name: "schedule",
    description:
      "Schedule a task for the user: a reminder or a job that runs later, once (`at`) or repeating (`cron` or `every_minutes`). " +
      "Each run sends `prompt` to an agent like you, with nobody watching, in a new session (or this one). The user approves it first. " +
      "Use it when the user asks to be reminded or for something to happen at a time.",
    schema: scheduleRequestSchema,
    async checkArguments(input) {
      const problem = requestProblem(input);
      return problem ? [{ path: [], message: problem.replace(/\.$/, "") }] : null;
    },
    async execute(input) {
      const task = await tasks.create(requestedTask(input, sessionId), { agent: true, session: sessionId });
      return {
        ok: true,
        output: `Scheduled "${task.name}" (${scheduleWords(task.schedule)}); next run: ${task.next_run ?? "none"}. The user sees it in the Tasks view (id ${task.id}).`,
        details: { task_id: task.id, next_run: task.next_run, request: describeRequest(input) },
      };
    },
  });
