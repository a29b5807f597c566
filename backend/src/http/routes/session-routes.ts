import { api, MAX_IMPORT_BYTES } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import type { TaskScheduler } from "../../tasks/task-scheduler.js";
import type { SessionHosts } from "../../approvals/session-hosts.js";
import type { Browsers } from "../../browser/browsers.js";
import { UserError } from "../../lib/user-error.js";
import { searchSessions, snippetFor } from "../../sessions/search-sessions.js";
import { attachmentsOf, exportJson, exportMarkdown, importedEntries, screenshotIdsOf, withAttachments } from "../../sessions/session-export.js";
import type { AttachmentStore } from "../../attachments/attachment-store.js";
import { assertSessionId, newSessionId } from "../../sessions/session-id.js";
import type { ChangeTracker } from "../../checkpoints/change-tracker.js";
import { forkEntries, hasTurn, newestContinuation, turnTree } from "../../sessions/session-branches.js";
import { turnTexts } from "../../sessions/session-index.js";
import { noSuchTurn, type SessionStore } from "../../sessions/session-store.js";
import type { TurnRegistry } from "../../turns/turn-registry.js";
import { checkMessage } from "../../chat/prepare-turn.js";
import { switchSessionModel } from "../../chat/session-model.js";
import type { ModelProfiles } from "../../models/model-profiles.js";
import type { Hooks } from "../../hooks/hooks.js";
import type { Config } from "../../config/config.js";
import type { UiEventBus } from "../../ui-events/ui-event-bus.js";
import { routeOf, typed } from "../api-route.js";

/**
 * An export's file name, from the session's title: characters no file system takes become "-" (a path
 * separator) or go, an ASCII form for old clients, and the title itself (RFC 6266 `filename*`).
 */
export function exportDisposition(title: string, ext: string): string {
  const name = [...title.replace(/[/\\]/g, "-")].filter((c) => c.charCodeAt(0) >= 0x20 && !':*?"<>|'.includes(c)).join("").replace(/\s+/g, " ").trim().slice(0, 100) || "session";
  const ascii = [...name].map((c) => (c.charCodeAt(0) < 0x7f ? c : "_")).join("");
  return `attachment; filename="${ascii}.${ext}"; filename*=UTF-8''${encodeURIComponent(`${name}.${ext}`)}`;
}

/**
 * Sessions: list, read, search, rename, pin, delete (to the trash) and restore, export and import.
 * `turns`: the running turns; nothing changes or leaves a session until its turn ends.
 */
export async function sessionRoutes(
  app: FastifyInstance,
  {
    sessions,
    turns,
    config,
    changes,
    ui,
    models,
    attachments,
    hooks,
    browsers,
    browserHosts,
    tasks,
  }: {
    sessions: SessionStore;
    turns: TurnRegistry;
    config: Config;
    changes: ChangeTracker;
    ui: UiEventBus;
    models: ModelProfiles;
    attachments: AttachmentStore;
    hooks: Pick<Hooks, "run">;
    browsers: Pick<Browsers, "close" | "screenshots">;
    browserHosts: Pick<SessionHosts, "forget">;
    tasks: Pick<TaskScheduler, "runSessions">;
  },
) {
  /** Every open page's session list reads again (a rename, a pin, a new or deleted session). */
  const listChanged = () => ui.publish({ type: "refresh", target: "sessions" });
  /** The session's id, checked to exist and to have no turn running. */
  const idle = async (raw: string): Promise<string> => {
    const id = assertSessionId(raw);
    if (turns.isHeld(id)) throw new UserError("conflict", `Session ${id} has a turn running; wait for it to end or stop it first.`);
    await sessions.require(id);
    return id;
  };

  typed(app).route({
    ...routeOf(api.sessions.list),
    handler: async () => {
      const made = tasks.runSessions();
      return { sessions: (await sessions.list()).map((s) => (made.has(s.id) ? { ...s, task_id: made.get(s.id) } : s)) };
    },
  });

  typed(app).route({
    ...routeOf(api.sessions.read),
    handler: async (request) => {
      const id = assertSessionId(request.params.id);
      return sessions.read(id, { running: turns.running(id) !== undefined, queue: turns.queued(id) });
    },
  });

  typed(app).route({
    ...routeOf(api.sessions.search),
    handler: async (request) => {
      const indexed = await sessions.indexed();
      const hits = searchSessions(indexed, request.query.q);
      // The index keeps lowercased text; snippets come from the files of the hits only.
      const results = await Promise.all(
        hits.map(async (hit) => {
          if (hit.turn === 0) return { ...hit, snippet: "" };
          const entries = await sessions.entries(hit.id).catch(() => []);
          return { ...hit, snippet: snippetFor(turnTexts(entries).get(hit.turn) ?? "", request.query.q) };
        }),
      );
      return { query: request.query.q, results, searched: indexed.length };
    },
  });

  typed(app).route({ ...routeOf(api.sessions.update), handler: async (request) => {
    const { title, pinned, branch, edit, model } = request.body;
    // Fastify drops unknown properties before this runs: a body with none we know changes nothing.
    if (title === undefined && pinned === undefined && branch === undefined && edit === undefined && model === undefined) {
      throw new UserError("invalid_request", "Nothing to change: send `title` (a string, or null), `pinned` (true or false), `branch` (a turn number), `edit` ({ turn, content }) or `model` (a profile, or null).");
    }
    if (model !== undefined && title === undefined && pinned === undefined && branch === undefined && edit === undefined) {
      // The model may be switched while a turn runs: the next turn uses it.
      const id = assertSessionId(request.params.id);
      await sessions.require(id);
      await switchSessionModel({ sessions, models }, id, model);
      listChanged();
      return sessions.summary(id);
    }
    const id = await idle(request.params.id);
    if (model !== undefined && model !== null && !models.has(model)) throw new UserError("invalid_request", `Unknown model profile: "${model.slice(0, 100)}".`);
    if (edit !== undefined) {
      const tree = turnTree(await sessions.entries(id));
      if (!hasTurn(tree, edit.turn)) throw new UserError("invalid_request", noSuchTurn(id, edit.turn, tree));
      if (edit.content.trim() === "") throw new UserError("invalid_request", "An edited message cannot be empty.");
      checkMessage(config, edit.content);
    }
    const clean = typeof title === "string" ? title.replace(/\s+/g, " ").trim() : title;
    let leaf: number | undefined;
    if (branch !== undefined) {
      const tree = turnTree(await sessions.entries(id));
      if (!hasTurn(tree, branch)) throw new UserError("invalid_request", noSuchTurn(id, branch, tree));
      leaf = newestContinuation(tree, branch);
    }
    await sessions.append(id, {
      type: "meta",
      ts: new Date().toISOString(),
      ...(clean !== undefined ? { title: clean || null } : {}),
      ...(pinned !== undefined ? { pinned } : {}),
      ...(leaf !== undefined ? { leaf } : {}),
      ...(edit !== undefined ? { edit } : {}),
      ...(model !== undefined ? { model } : {}),
    });
    listChanged();
    return sessions.summary(id);
  } });

  // A new session holding one branch up to a turn, as a straight line (the original stays as it is).
  typed(app).route({
    ...routeOf(api.sessions.fork),
    handler: async (request, reply) => {
      const id = await idle(request.params.id);
      const { entries } = await sessions.read(id, { leaf: request.body.turn });
      const forked = newSessionId();
      await sessions.write(forked, forkEntries(entries));
      listChanged();
      return reply.code(201).send(await sessions.summary(forked));
    },
  });

  typed(app).route({
    ...routeOf(api.sessions.remove),
    handler: async (request) => {
      const id = await idle(request.params.id);
      const trash = await sessions.trash(id);
      // What its calls changed goes with it: the records, and the contents only they kept.
      await changes.forgetSession(id);
      // Its attachments leave the tools' sight; their bytes stay while it can be restored.
      await attachments.dropCopies(id);
      // Its browser closes, and the hosts it was let visit are forgotten (a restore asks again).
      await browsers.close(id);
      browserHosts.forget(id);
      listChanged();
      // The user's SessionEnd hooks, after the reply: they decide nothing.
      void hooks.run({ event: "SessionEnd", names: ["deleted"], fields: { reason: "deleted" }, sessionId: id }).catch((err: Error) => request.log.warn({ err: err.message }, "SessionEnd hooks failed"));
      return { id, trash };
    },
  });

  typed(app).route({
    ...routeOf(api.sessions.restore),
    handler: async (request) => {
      const id = assertSessionId(request.params.id);
      await sessions.restore(id, request.body.trash);
      await attachments.restoreCopies(id, attachmentsOf(await sessions.entries(id)));
      listChanged();
      return { id, restored: true as const };
    },
  });

  typed(app).route({
    ...routeOf(api.sessions.export),
    handler: async (request, reply) => {
      const id = await idle(request.params.id);
      // Markdown: the branch being read; JSON: the whole tree, to import elsewhere.
      const session = await sessions.read(id);
      const markdown = request.query.format === "md";
      reply.header("content-disposition", exportDisposition(session.title || id, markdown ? "md" : "json"));
      // Text, not JSON: Fastify sends a string of another type as it is (the contract's raw reply).
      if (markdown) return reply.type("text/markdown; charset=utf-8").send(exportMarkdown(session) as never);
      const entries = await sessions.entries(id);
      const screenshots = (await Promise.all(screenshotIdsOf(entries).map(async (id) => ({ id, jpeg: await browsers.screenshots.read(id) })))).flatMap(({ id, jpeg }) => (jpeg ? [{ id, data: jpeg.toString("base64") }] : []));
      return exportJson({ ...session, entries }, await attachments.exported(attachmentsOf(entries), { originalImages: request.query.images === "original" }), screenshots);
    },
  });

  // The body is checked entry by entry by the importer (a bad line is named, not the whole file refused).
  app.post("/api/sessions/import", { bodyLimit: MAX_IMPORT_BYTES, schema: { response: { 201: api.sessions.import.responses[201] } } }, async (request, reply) => {
    const { entries, attachments: carried, screenshots } = importedEntries(request.body, config.limits.messageChars);
    // Screenshots first, each checked against its id: a bad one refuses the import before any session exists.
    for (const { id, data } of screenshots) {
      try {
        await browsers.screenshots.imported(id, Buffer.from(data, "base64"));
      } catch (err) {
        throw new UserError("invalid_request", `Not imported: ${(err as Error).message}.`);
      }
    }
    const id = newSessionId();
    // The attachments first, checked like uploads: a bad one refuses the import before any session exists.
    const stored = await attachments.imported(carried, id);
    await sessions.write(id, withAttachments(entries, stored));
    listChanged();
    return reply.code(201).send(await sessions.summary(id));
  });
}
