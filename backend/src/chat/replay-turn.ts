/**
 * A recorded turn run again (issue 54): a new session holds the history before the turn (as a fork
 * would) and is marked as its replay; the turn's message is sent there on the chosen profile, with the
 * prompt that turn was sent or today's, and its tools answered from the record or run live. The
 * original session is only read.
 */
import type { ReplayOf, ReplayRequest } from "@mini-openclaw/protocol";
import { UserError } from "../lib/user-error.js";
import type { PromptHistory } from "../prompt/prompt-history.js";
import { forkEntries, hasTurn, turnTree } from "../sessions/session-branches.js";
import { newSessionId } from "../sessions/session-id.js";
import type { SessionStore } from "../sessions/session-store.js";
import type { LiveTurn } from "../turns/live-turn.js";
import type { TurnRequest } from "./prepare-turn.js";
import { recordedCalls } from "./replayed-tools.js";

export interface ReplayDeps {
  sessions: Pick<SessionStore, "entries" | "read" | "write" | "summary">;
  models: { has(name: string): boolean; names(): string[] };
  promptHistory: Pick<PromptHistory, "forTurn">;
  startTurn: (request: TurnRequest) => Promise<LiveTurn>;
}

export async function startReplay(deps: ReplayDeps, sessionId: string, turn: number, request: ReplayRequest): Promise<{ session_id: string; turn: number; replay_of: ReplayOf }> {
  const { sessions, models } = deps;
  const all = await sessions.entries(sessionId);
  const tree = turnTree(all);
  if (!hasTurn(tree, turn)) throw new UserError("not_found", `Session ${sessionId} has no turn ${turn}.`);
  const { entries: branch, title } = await sessions.read(sessionId, { leaf: turn });
  const user = branch.find((e) => e.type === "user" && e.turn === turn);
  if (!user || user.type !== "user") throw new UserError("not_found", `Turn ${turn} of session ${sessionId} has no message to send again.`);
  const parent = tree.parents.get(turn) ?? 0;
  const history = parent === 0 ? branch.filter((e) => e.type === "snapshot") : (await sessions.read(sessionId, { leaf: parent })).entries;

  // The profile: the one asked for, else the one the turn ran on (said when it is gone), else the default.
  const ranOn = branch.find((e) => e.type === "event" && e.turn === turn && e.event.type === "step_start");
  const original = ranOn?.type === "event" && ranOn.event.type === "step_start" ? ranOn.event.profile : undefined;
  const profile = request.profile ?? original;
  if (profile !== undefined && !models.has(profile)) {
    const whose = request.profile !== undefined ? "The profile asked for" : "The profile this turn ran on";
    throw new UserError("conflict", `${whose}, "${profile.slice(0, 64)}", no longer exists. Choose one of: ${models.names().join(", ")}.`);
  }
  // The prompt: as the turn was sent when it was kept (the default then), else today's.
  const kept = request.prompt === "today" ? null : await deps.promptHistory.forTurn(sessionId, turn);
  if (request.prompt === "original" && !kept) throw new UserError("conflict", `The prompt turn ${turn} was sent is not kept (a turn from before prompts were kept with the session, or its file is gone). Replay it with today's prompt ("prompt": "today").`);
  const replayOf: ReplayOf = { session_id: sessionId, turn, ...(profile !== undefined ? { profile } : {}), prompt: kept ? "original" : "today", tools: request.tools ?? "recorded" };

  const id = newSessionId();
  const forked = forkEntries(history);
  await sessions.write(id, [
    ...forked,
    { type: "meta", ts: new Date().toISOString(), title: `Replay of "${title.slice(0, 120)}", turn ${turn}`, replay_of: replayOf },
  ]);
  const live = await deps.startTurn({
    message: user.content,
    session_id: id,
    ...(profile !== undefined ? { model: profile } : {}),
    ...(user.tools === false ? { tools: false } : {}),
    replay: { tools: replayOf.tools, unrecorded: request.unrecorded ?? "refuse", calls: recordedCalls(branch, turn), prompt: kept },
  });
  // Its message recorded before the reply: a compare asked for at once finds the run.
  await started(live);
  // The history's turns are numbered 1..n in the new session: the replayed one is the next.
  return { session_id: live.sessionId, turn: turnTree(forked).order.length + 1, replay_of: replayOf };
}

/** Resolves once the turn has said its session (its message is recorded by then), or has ended. */
function started(live: LiveTurn): Promise<void> {
  return new Promise((resolve) => {
    if (live.events.some((e) => e.event.type === "session")) return resolve();
    const off = live.subscribe({
      event: ({ event }) => {
        if (event.type !== "session") return;
        off();
        resolve();
      },
      end: resolve,
    });
  });
}
