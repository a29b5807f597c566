import { api, type ComparedRun, type PromptDiff } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import { type ReplayDeps, startReplay } from "../../chat/replay-turn.js";
import { UserError } from "../../lib/user-error.js";
import { diffPrompts } from "../../prompt/prompt-diff.js";
import type { PromptHistory } from "../../prompt/prompt-history.js";
import { comparedRun, toolCallDifferences } from "../../sessions/compared-run.js";
import { hasTurn, turnTree } from "../../sessions/session-branches.js";
import { assertSessionId } from "../../sessions/session-id.js";
import type { SessionStore } from "../../sessions/session-store.js";
import { routeOf, typed } from "../api-route.js";

interface ReplayRouteDeps extends ReplayDeps {
  sessions: SessionStore;
  promptHistory: PromptHistory;
  listChanged: () => void;
}

/** The turns of a run's branch before it (how much history it was sent). */
const historyTurns = (entries: Array<{ type: string; turn?: number }>, turn: number) => new Set(entries.filter((e) => e.type === "user" && e.turn !== undefined && e.turn < turn).map((e) => e.turn)).size;

/** Replay a turn, compare runs of it, and diff what the model was sent at two turns. */
export async function replayRoutes(app: FastifyInstance, deps: ReplayRouteDeps) {
  const { sessions, promptHistory } = deps;
  /** One run: its branch up to the turn (404 for a session or turn that is not there). */
  const runOf = async (raw: string, turn: number) => {
    const id = assertSessionId(raw);
    await sessions.require(id);
    const all = await sessions.entries(id);
    if (!hasTurn(turnTree(all), turn)) throw new UserError("not_found", `Session ${id} has no turn ${turn}.`);
    const detail = await sessions.read(id, { leaf: turn });
    return { id, turn, entries: detail.entries, replayOf: detail.replay_of };
  };
  const promptDiff = async (a: { id: string; turn: number; entries: Array<{ type: string; turn?: number }> }, b: typeof a): Promise<PromptDiff> => {
    const [before, after] = await Promise.all([promptHistory.forTurn(a.id, a.turn), promptHistory.forTurn(b.id, b.turn)]);
    return {
      before: before ? { session_id: a.id, turn: a.turn, sha256: before.sha256 } : null,
      after: after ? { session_id: b.id, turn: b.turn, sha256: after.sha256 } : null,
      sections: diffPrompts(before, after),
      history: { before: historyTurns(a.entries, a.turn), after: historyTurns(b.entries, b.turn) },
    };
  };

  typed(app).route({
    ...routeOf(api.replay.replay),
    handler: async (request, reply) => {
      const id = assertSessionId(request.params.id);
      await sessions.require(id);
      const started = await startReplay(deps, id, request.params.turn, request.body);
      deps.listChanged();
      return reply.code(202).send(started);
    },
  });

  typed(app).route({
    ...routeOf(api.replay.promptDiff),
    handler: async (request) => {
      const [a, b] = await Promise.all([runOf(request.params.id, request.query.from), runOf(request.params.id, request.query.to)]);
      return promptDiff(a, b);
    },
  });

  typed(app).route({
    ...routeOf(api.replay.compare),
    handler: async (request) => {
      const named = request.query.runs.split(",").map((part) => part.trim().split(":"));
      if (named.length < 2 || named.length > 4 || named.some((p) => p.length !== 2 || !/^\d+$/.test(p[1]))) {
        throw new UserError("invalid_request", "'runs' is two to four runs as session:turn, comma-separated.");
      }
      const runs = await Promise.all(named.map(([id, turn]) => runOf(id, Number(turn))));
      const compared = runs.map((r) => comparedRun(r.id, r.turn, r.entries, r.replayOf)).filter((r): r is ComparedRun => r !== null);
      if (compared.length !== runs.length) throw new UserError("not_found", "A run named has no message.");
      return {
        runs: compared,
        tool_calls: compared.slice(1).map((other) => toolCallDifferences(compared[0], other)),
        prompts: await Promise.all(runs.slice(1).map((other) => promptDiff(runs[0], other))),
      };
    },
  });
}
