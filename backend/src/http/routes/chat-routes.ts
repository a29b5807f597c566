import type { ChatErrorCode, ChatEvent, ChatReply, ChatRequest } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import { CLIENT_GONE_REASON } from "../../agent/model-errors.js";
import { type ChatDeps, prepareTurn } from "../../chat/chat-turn.js";
import { compactSessionNow } from "../../chat/compact-command.js";
import { UserError } from "../../lib/user-error.js";
import { assertSessionId } from "../../sessions/session-id.js";
import { openSse } from "../sse.js";

/** The user pressed Stop (the model-error mapping says "The turn was stopped."). */
const STOPPED_REASON = "stopped_by_user";

const bodySchema = {
  type: "object",
  required: ["message"],
  properties: {
    message: { type: "string" },
    session_id: { type: ["string", "null"] },
    stream: { type: "boolean" },
    tools: { type: "boolean" },
    parent_turn: { type: "integer", minimum: 0 },
  },
} as const;

/** HTTP status for a failed non-streamed turn. */
const STATUS_FOR: Record<ChatErrorCode, number> = {
  model_not_configured: 503,
  model_unreachable: 502,
  model_auth: 502,
  model_error: 502,
  model_bad_response: 502,
  model_timeout: 504,
  rate_limited: 429,
  context_too_long: 502,
  tools_unsupported: 502,
  aborted: 499,
  storage: 507,
  internal: 500,
};

const compactBodySchema = {
  type: ["object", "null"],
  properties: { keep_turns: { type: "integer", minimum: 0, maximum: 10_000 } },
  additionalProperties: false,
} as const;

export async function chatRoutes(app: FastifyInstance, deps: ChatDeps) {
  // Summarizes the session's turns now (all of them unless `keep_turns` says how many to keep verbatim).
  app.post<{ Params: { id: string }; Body: { keep_turns?: number } | null }>(
    "/api/sessions/:id/compact",
    { schema: { body: compactBodySchema } },
    async (request, reply) => {
      const controller = new AbortController();
      reply.raw.on("close", () => {
        if (!reply.raw.writableEnded) controller.abort(CLIENT_GONE_REASON);
      });
      return compactSessionNow(deps, request.params.id, request.body?.keep_turns ?? 0, controller.signal);
    },
  );

  app.post<{ Body: ChatRequest }>("/api/chat", { schema: { body: bodySchema } }, async (request, reply) => {
    const turn = await prepareTurn(deps, request.body);

    if (request.body.stream === false) {
      const events: ChatEvent[] = [];
      const controller = new AbortController();
      reply.raw.on("close", () => {
        if (!reply.raw.writableEnded) controller.abort(CLIENT_GONE_REASON);
      });
      await turn.run((event) => events.push(event), controller.signal);
      const last = events[events.length - 1];
      if (last?.type === "error") {
        return reply.code(STATUS_FOR[last.code]).send({ error: last.message, code: last.code, session_id: turn.sessionId, events });
      }
      const answer: ChatReply = { session_id: turn.sessionId, content: last?.type === "final" ? last.content : "", events };
      return answer;
    }

    reply.hijack();
    const controller = new AbortController();
    // A client gone stops the turn, unless the turn waits for an approval: the user may be reloading
    // the page or deciding from another tab, so the turn goes on without this stream (its events are
    // still recorded in the session) until a decision, the approval's timeout, or Stop.
    const sse = openSse(reply.raw, () => {
      if (deps.approvals.waiting(turn.sessionId)) request.log.info({ sessionId: turn.sessionId }, "client gone while an approval waits: the turn goes on");
      else controller.abort(CLIENT_GONE_REASON);
    });
    deps.stops.set(turn.sessionId, () => controller.abort(STOPPED_REASON));
    try {
      await turn.run(sse.send, controller.signal);
    } catch (err) {
      request.log.error({ err }, "chat turn crashed");
      sse.send({ type: "error", code: "internal", message: "The turn failed unexpectedly; the details are in the server log." });
    } finally {
      deps.stops.delete(turn.sessionId);
      turn.release();
      sse.end();
    }
  });

  // Stop, whichever page asks: the turn of this session ends as if its own client had pressed Stop.
  app.post<{ Params: { id: string } }>("/api/sessions/:id/stop", async (request) => {
    const id = assertSessionId(request.params.id);
    const stop = deps.stops.get(id);
    if (!stop) throw new UserError(409, `No turn is running in session ${id}.`);
    stop();
    return { id, stopping: true };
  });
}
