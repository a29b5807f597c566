import { api, httpStatusOf, type ChatReply } from "@mini-openclaw/protocol";
import type { FastifyInstance, FastifyReply } from "fastify";
import { CLIENT_GONE_REASON } from "../../agent/model-errors.js";
import type { ChatDeps } from "../../chat/chat-deps.js";
import type { ChatTurns } from "../../chat/chat-turns.js";
import { compactSessionNow } from "../../chat/compact-command.js";
import { UserError } from "../../lib/user-error.js";
import { assertSessionId } from "../../sessions/session-id.js";
import { parseEventId } from "../../turns/event-ids.js";
import type { LiveTurn } from "../../turns/live-turn.js";
import { SseStreams } from "../sse.js";
import { streamTurn } from "../turn-stream.js";
import { routeOf, typed } from "../api-route.js";

/**
 * Chat: `POST /api/chat` starts a turn that belongs to the workbench (the request only reads it), or
 * queues the message behind a running one; `GET /api/sessions/:id/stream` reattaches to a running turn;
 * Stop and the queue's removal.
 */
export async function chatRoutes(app: FastifyInstance, deps: ChatDeps & { chat: ChatTurns }) {
  const { turns, sessions } = deps;
  const readers = new SseStreams();
  // Turns end (stopped, written to their last event) before the server does; readers go with them.
  app.addHook("preClose", async () => {
    await turns.shutdown();
    readers.endAll();
  });

  /** Streams the turn's events after `afterId` (all when null) to this response, then ends it with the turn; a reader that goes away leaves, the turn goes on. */
  const attach = (reply: FastifyReply, live: LiveTurn, afterId: number | null) => readers.open(reply, (sse) => streamTurn(sse, live, afterId));

  // Summarizes the session's turns now (all of them unless `keep_turns` says how many to keep verbatim).
  typed(app).route({
    ...routeOf(api.chat.compact),
    handler: async (request, reply) => {
      const controller = new AbortController();
      reply.raw.on("close", () => {
        if (!reply.raw.writableEnded) controller.abort(CLIENT_GONE_REASON);
      });
      return compactSessionNow(deps, request.params.id, request.body?.keep_turns ?? 0, controller.signal);
    },
  });

  typed(app).route({ ...routeOf(api.chat.chat), handler: async (request, reply) => {
    const body = request.body;
    if (body.queue !== undefined && body.session_id) {
      const { queue: mode, session_id: _id, stream: _stream, ...rest } = body;
      return reply.code(202).send(await deps.chat.queue(assertSessionId(body.session_id), { ...rest, mode }));
    }
    const live = await deps.chat.start(body);
    if (body.stream !== false) return attach(reply, live, null);
    // Not streamed: the reply waits for the turn's end; a client that leaves first leaves the turn running.
    await live.done;
    const events = live.events.map((e) => e.event);
    const last = events[events.length - 1];
    if (last?.type === "error") {
      return reply.code(httpStatusOf(last.code)).send({ error: last.message, code: last.code, session_id: live.sessionId, events });
    }
    const answer: ChatReply = { session_id: live.sessionId, content: last?.type === "final" ? last.content : "", events };
    return answer;
  } });

  // Reattach, or watch from another tab: the running turn from its start, or after the event a client last had.
  typed(app).route({
    ...routeOf(api.chat.stream),
    handler: async (request, reply) => {
      const id = assertSessionId(request.params.id);
      if (!turns.isHeld(id)) await sessions.require(id);
      const header = request.headers["last-event-id"];
      const raw = request.query.after ?? (typeof header === "string" ? header : undefined);
      const afterId = raw === undefined || raw === "" ? null : parseEventId(raw.trim());
      if (raw !== undefined && raw !== "" && afterId === null) throw new UserError("invalid_request", `"${raw.slice(0, 40)}" is not an event id: ids are the positive integers of the stream's id: lines.`);
      const live = turns.running(id);
      if (!live) return reply.code(204).send();
      if (afterId !== null && !live.has(afterId) && !(await storedIdOf(id, afterId))) {
        throw new UserError("invalid_request", `Event ${afterId} is not one of session ${id}'s events; reattach without an id to get the running turn from its start.`);
      }
      return attach(reply, live, afterId);
    },
  });

  /** The id is one this session stored (an event of an earlier turn, or of this one written already). */
  const storedIdOf = async (id: string, eventId: number): Promise<boolean> => {
    for (const entry of await sessions.entries(id)) {
      if (entry.type === "event" && entry.id !== undefined && eventId <= entry.id && eventId >= (entry.first_id ?? entry.id)) return true;
    }
    return false;
  };

  // Stop, whichever page asks: the turn of this session ends as stopped; its queue comes back.
  typed(app).route({
    ...routeOf(api.chat.stop),
    handler: async (request) => {
      const id = assertSessionId(request.params.id);
      const handedBack = turns.stop(id);
      if (!handedBack) {
        await sessions.require(id);
        throw new UserError("conflict", `No turn is running in session ${id}.`);
      }
      return { id, stopping: true as const, queue: handedBack };
    },
  });

  typed(app).route({
    ...routeOf(api.chat.queue),
    handler: async (request, reply) => reply.code(202).send(await deps.chat.queue(assertSessionId(request.params.id), request.body)),
  });

  typed(app).route({
    ...routeOf(api.chat.dequeue),
    handler: async (request, reply) => {
      const id = assertSessionId(request.params.id);
      if (!turns.isHeld(id)) await sessions.require(id);
      if (!turns.dequeue(id, request.params.qid)) throw new UserError("not_found", `Session ${id} has no queued message ${request.params.qid.slice(0, 80)}.`);
      return reply.code(204).send();
    },
  });
}
