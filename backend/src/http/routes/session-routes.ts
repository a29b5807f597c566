import type { SessionDeleteReply, SessionDetail, SessionSearchReply, SessionSummary, SessionUpdate } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import { UserError } from "../../lib/user-error.js";
import { searchSessions, snippetFor } from "../../sessions/search-sessions.js";
import { exportJson, exportMarkdown, importedEntries } from "../../sessions/session-export.js";
import { assertSessionId, newSessionId } from "../../sessions/session-id.js";
import type { ChangeTracker } from "../../checkpoints/change-tracker.js";
import { forkEntries, hasTurn, newestContinuation, turnTree } from "../../sessions/session-branches.js";
import { turnTexts } from "../../sessions/session-index.js";
import { noSuchTurn, type SessionStore } from "../../sessions/session-store.js";
import type { TurnRegistry } from "../../turns/turn-registry.js";

const updateSchema = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: { title: { type: ["string", "null"], maxLength: 200 }, pinned: { type: "boolean" },
    branch: { type: "integer", minimum: 1 },
    edit: {
      type: "object",
      required: ["turn", "content"],
      additionalProperties: false,
      properties: { turn: { type: "integer", minimum: 1 }, content: { type: "string", minLength: 1, maxLength: 100_000 } },
    },
  },
} as const;

/**
 * Sessions: list, read, search, rename, pin, delete (to the trash) and restore, export and import.
 * `turns`: the running turns; nothing changes or leaves a session until its turn ends.
 */
export async function sessionRoutes(
  app: FastifyInstance,
  { sessions, turns, messageChars, changes }: { sessions: SessionStore; turns: TurnRegistry; messageChars: number; changes: ChangeTracker },
) {
  /** The session's id, checked to exist and to have no turn running. */
  const idle = async (raw: string): Promise<string> => {
    const id = assertSessionId(raw);
    if (turns.busy.has(id)) throw new UserError(409, `Session ${id} has a turn running; wait for it to end or stop it first.`);
    if (!(await sessions.exists(id))) throw new UserError(404, `Unknown session: ${id}`);
    return id;
  };

  app.get("/api/sessions", async (): Promise<{ sessions: SessionSummary[] }> => ({ sessions: await sessions.list() }));

  app.get<{ Params: { id: string } }>("/api/sessions/:id", async (request): Promise<SessionDetail> => {
    const id = assertSessionId(request.params.id);
    return sessions.read(id, { running: turns.running(id) !== undefined, queue: turns.queued(id) });
  });

  app.get<{ Querystring: { q: string } }>(
    "/api/sessions/search",
    { schema: { querystring: { type: "object", required: ["q"], properties: { q: { type: "string", minLength: 1, maxLength: 200 } } } } },
    async (request): Promise<SessionSearchReply> => {
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
  );

  app.patch<{ Params: { id: string }; Body: SessionUpdate }>("/api/sessions/:id", { schema: { body: updateSchema } }, async (request): Promise<SessionSummary> => {
    const id = await idle(request.params.id);
    const { title, pinned, branch, edit } = request.body;
    // Fastify drops unknown properties before this runs: a body with none we know changes nothing.
    if (title === undefined && pinned === undefined && branch === undefined && edit === undefined) {
      throw new UserError(400, "Nothing to change: send `title` (a string, or null), `pinned` (true or false), `branch` (a turn number) or `edit` ({ turn, content }).");
    }
    if (edit !== undefined) {
      const tree = turnTree(await sessions.entries(id));
      if (!hasTurn(tree, edit.turn)) throw new UserError(400, noSuchTurn(id, edit.turn, tree));
      if (edit.content.trim() === "") throw new UserError(400, "An edited message cannot be empty.");
    }
    const clean = typeof title === "string" ? title.replace(/\s+/g, " ").trim() : title;
    let leaf: number | undefined;
    if (branch !== undefined) {
      const tree = turnTree(await sessions.entries(id));
      if (!hasTurn(tree, branch)) throw new UserError(400, noSuchTurn(id, branch, tree));
      leaf = newestContinuation(tree, branch);
    }
    await sessions.append(id, {
      type: "meta",
      ts: new Date().toISOString(),
      ...(clean !== undefined ? { title: clean || null } : {}),
      ...(pinned !== undefined ? { pinned } : {}),
      ...(leaf !== undefined ? { leaf } : {}),
      ...(edit !== undefined ? { edit } : {}),
    });
    return sessions.summary(id);
  });

  // A new session holding one branch up to a turn, as a straight line (the original stays as it is).
  app.post<{ Params: { id: string }; Body: { turn: number } }>(
    "/api/sessions/:id/fork",
    { schema: { body: { type: "object", required: ["turn"], additionalProperties: false, properties: { turn: { type: "integer", minimum: 1 } } } } },
    async (request, reply): Promise<SessionSummary> => {
      const id = await idle(request.params.id);
      const { entries } = await sessions.read(id, { leaf: request.body.turn });
      const forked = newSessionId();
      await sessions.write(forked, forkEntries(entries));
      return reply.code(201).send(await sessions.summary(forked));
    },
  );

  app.delete<{ Params: { id: string } }>("/api/sessions/:id", async (request): Promise<SessionDeleteReply> => {
    const id = await idle(request.params.id);
    const trash = await sessions.trash(id);
    // What its calls changed goes with it: the records, and the contents only they kept.
    await changes.forgetSession(id);
    return { id, trash };
  });

  app.post<{ Params: { id: string }; Body: { trash: string } }>(
    "/api/sessions/:id/restore",
    { schema: { body: { type: "object", required: ["trash"], additionalProperties: false, properties: { trash: { type: "string", maxLength: 120 } } } } },
    async (request) => {
      const id = assertSessionId(request.params.id);
      await sessions.restore(id, request.body.trash);
      return { id, restored: true };
    },
  );

  app.get<{ Params: { id: string }; Querystring: { format?: "json" | "md" } }>(
    "/api/sessions/:id/export",
    { schema: { querystring: { type: "object", properties: { format: { type: "string", enum: ["json", "md"] } } } } },
    async (request, reply) => {
      const id = await idle(request.params.id);
      // Markdown: the branch being read; JSON: the whole tree, to import elsewhere.
      const session = await sessions.read(id);
      const markdown = request.query.format === "md";
      reply.header("content-disposition", `attachment; filename="${id}.${markdown ? "md" : "json"}"`);
      if (markdown) return reply.type("text/markdown; charset=utf-8").send(exportMarkdown(session));
      return exportJson({ ...session, entries: await sessions.entries(id) });
    },
  );

  app.post("/api/sessions/import", { bodyLimit: 64 * 1024 * 1024 }, async (request, reply): Promise<SessionSummary> => {
    const { entries } = importedEntries(request.body, messageChars);
    const id = newSessionId();
    await sessions.write(id, entries);
    return reply.code(201).send(await sessions.summary(id));
  });
}
