import type { ChatQueuedReply, QueueItem, QueueRequest } from "@mini-openclaw/protocol";
import { UserError } from "../lib/user-error.js";
import type { LiveTurn } from "../turns/live-turn.js";
import { modelFacts } from "../telemetry/tracing.js";
import { summarizeTurn } from "../turns/turn-summary.js";
import type { ChatDeps } from "./chat-deps.js";
import { checkMessage, checkProfiles, type PreparedTurn, prepareTurn, type TurnRequest } from "./prepare-turn.js";
import { switchSessionModel } from "./session-model.js";
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

  /**
   * A message for a session, behind its running turn (a follow-up, or a steer). When no turn runs
   * there any more (it ended as the message came), the message starts the next turn at once and the
   * reply names it: a queued message is never answered with a turn's stream, which its sender would
   * not read.
   */
  async queue(sessionId: string, request: QueueRequest & { parent_turn?: number }): Promise<ChatQueuedReply> {
    const { turns, sessions, models, config } = this.deps;
    const mode = request.mode ?? "follow_up";
    checkMessage(config, request.message);
    await sessions.require(sessionId);
    for (;;) {
      if (turns.isHeld(sessionId)) {
        if (request.parent_turn !== undefined) throw new UserError("invalid_request", "A queued message follows the running turn; it cannot also name 'parent_turn'.");
        checkProfiles(models, request);
        if (request.session_model !== undefined) await switchSessionModel(this.deps, sessionId, request.session_model);
        // Attachments are made the session's now: one from elsewhere is refused before anything waits.
        if (request.attachments?.length) await this.deps.attachments.claim(request.attachments, sessionId);
        const item = turns.enqueue(sessionId, request.message, mode, request.tools !== false, request.model, request.attachments);
        return { queued: item.id, session_id: sessionId, mode };
      }
      let live: LiveTurn;
      try {
        live = await this.start({ ...request, session_id: sessionId });
      } catch (err) {
        // Another turn took the session between the look and the start: the message waits behind it.
        if (err instanceof UserError && err.code === "conflict" && turns.isHeld(sessionId)) continue;
        throw err;
      }
      return { session_id: sessionId, mode, started: true, ...(await turnNumberOf(live)) };
    }
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
    while (!turns.shuttingDown && !turns.isHeld(sessionId)) {
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

/** The turn's number, from its `session` event (sent once its session file is there), or nothing if it ended before one. */
function turnNumberOf(live: LiveTurn): Promise<{ turn?: number }> {
  const found = () => {
    const event = live.events.find((e) => e.event.type === "session")?.event;
    return event?.type === "session" ? { turn: event.turn } : {};
  };
  return new Promise((resolve) => {
    if ("turn" in found() || live.ended) return resolve(found());
    const stop = live.subscribe({
      event: ({ event }) => {
        if (event.type !== "session") return;
        stop();
        resolve({ turn: event.turn });
      },
      end: () => resolve(found()),
    });
  });
}
