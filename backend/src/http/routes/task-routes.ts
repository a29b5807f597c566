import { api } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import type { TaskScheduler } from "../../tasks/task-scheduler.js";
import { checkSchedule, nextTimes, serverTimeZone } from "../../schedules/task-schedule.js";
import { routeOf, typed } from "../api-route.js";
import { assertOwnPage } from "../own-page.js";

/**
 * Scheduled tasks, the heartbeat and the memory consolidation: list, create, read, replace, delete, run now, each one's runs,
 * and the next times a schedule gives (the form shows them as it is typed).
 */
export async function taskRoutes(app: FastifyInstance, { scheduler, allowedOrigins }: { scheduler: TaskScheduler; allowedOrigins: string[] }) {
  typed(app).route({ ...routeOf(api.tasks.list), handler: async () => scheduler.reply() });

  typed(app).route({
    ...routeOf(api.tasks.create),
    handler: async (request, reply) => reply.code(201).send(await scheduler.create(request.body)),
  });

  typed(app).route({
    ...routeOf(api.tasks.preview),
    handler: async (request) => {
      const { schedule, count } = request.body;
      checkSchedule(schedule, Date.now(), scheduler.minIntervalSeconds);
      const now = Date.now();
      return { next: nextTimes(schedule, now, now, count ?? 5).map((ms) => new Date(ms).toISOString()), time_zone: schedule.kind === "cron" && schedule.tz ? schedule.tz : serverTimeZone() };
    },
  });

  typed(app).route({ ...routeOf(api.tasks.heartbeat), handler: async (request) => scheduler.setHeartbeat(request.body) });
  typed(app).route({ ...routeOf(api.tasks.consolidation), handler: async (request) => scheduler.setConsolidation(request.body) });
  typed(app).route({
    ...routeOf(api.tasks.checklist),
    handler: async (request) => {
      // A standing order is the user's to accept: from the workbench's own page only, as approvals are.
      assertOwnPage(request, allowedOrigins, "A changed checklist is accepted only from the workbench's own page (its Origin), never by another site or a script.");
      return scheduler.decideChecklist(request.body.decision, request.body.sha256);
    },
  });
  typed(app).route({ ...routeOf(api.tasks.read), handler: async (request) => scheduler.task(request.params.id) });
  typed(app).route({ ...routeOf(api.tasks.update), handler: async (request) => scheduler.update(request.params.id, request.body) });

  typed(app).route({
    ...routeOf(api.tasks.remove),
    handler: async (request) => {
      await scheduler.remove(request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  });

  typed(app).route({ ...routeOf(api.tasks.run), handler: async (request, reply) => reply.code(202).send(await scheduler.runNow(request.params.id)) });
  typed(app).route({ ...routeOf(api.tasks.runs), handler: async (request) => ({ runs: scheduler.runs(request.params.id) }) });
}
