import type { QueueItem } from "@mini-openclaw/protocol";
import type { LiveTurn } from "../turns/live-turn.js";
import { modelFacts } from "../telemetry/tracing.js";
import { summarizeTurn } from "../turns/turn-summary.js";
import type { ChatDeps } from "./chat-deps.js";
import { type PreparedTurn, prepareTurn, type TurnRequest } from "./prepare-turn.js";
import { runTurn } from "./run-turn.js";

/**
 * Starts turns and keeps their sessions moving: a request (or a queued message) is checked, its turn
 * opened in the registry as a live event stream, run to its end, and closed; then the session's next
 * queued message runs. Every open page hears when a turn starts and ends.
 */
export class ChatTurns {
  constructor(private readonly deps: ChatDeps) {}

  /** Checks the request (an HTTP error for what can be refused before anything runs), then starts its turn. */
  async start(request: TurnRequest): Promise<LiveTurn> {
    return this.run(await prepareTurn(this.deps, request));
  }

  private run(turn: PreparedTurn): LiveTurn {
    const { turns, ui, log } = this.deps;
    const { sessionId } = turn;
    const live = turns.open(sessionId);
    // The trace's server is the profile the request names (an existing session's own profile is read with its file, later).
    const { models } = this.deps;
    const profile = models.resolve(turn.model ?? turn.sessionModel ?? models.defaultName()) ?? models.resolve("default")!;
    this.deps.tracing?.follow(live, { sessionId, message: turn.message, model: modelFacts(profile.model) });
    const startedAt = performance.now();
    // Every open page learns of the turn once its session file exists (its `session` event).
    const announce = live.subscribe({
      event: ({ event }) => {
        if (event.type === "session") ui.publish({ type: "turn", session_id: sessionId, running: true, turn: event.turn });
      },
    });
    void runTurn(this.deps, turn, live, turns.steering(sessionId))
      .catch((err) => {
        log.error({ err, sessionId }, "chat turn crashed");
        live.emit({ type: "error", code: "internal", message: "The turn failed unexpectedly; the details are in the server log." });
      })
      .finally(() => {
        announce();
        turns.close(live);
        // One line per turn (requests are at debug): what a person reading the log wants to see; a failure at warn, with its cause.
        const summary = summarizeTurn(sessionId, live.events.map((e) => e.event), performance.now() - startedAt);
        if (summary.error !== undefined && summary.outcome !== "aborted") log.warn(summary, "turn failed");
        else log.info(summary, "turn finished");
        turns.release(sessionId);
        ui.publish({ type: "turn", session_id: sessionId, running: false });
        ui.publish({ type: "refresh", target: "sessions" });
        void this.next(sessionId);
      });
    return live;
  }

  /** The oldest queued message runs as the session's next turn (one that cannot run is dropped, with a toast). */
  private async next(sessionId: string): Promise<void> {
    const { turns, ui, log } = this.deps;
    while (!turns.shuttingDown && !turns.busy.has(sessionId)) {
      const item: QueueItem | undefined = turns.shiftQueued(sessionId);
      if (!item) return;
      try {
        this.run(await prepareTurn(this.deps, { message: item.message, session_id: sessionId, tools: item.tools !== false, ...(item.model ? { model: item.model } : {}), ...(item.attachments ? { attachments: item.attachments } : {}) }));
        return;
      } catch (err) {
        log.warn({ err, sessionId }, "a queued message could not run");
        ui.toast({ kind: "queued_failed", detail: (err as Error).message }, "warning");
      }
    }
  }
}
