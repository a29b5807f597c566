import { api, type CallChanges, type RewindReply } from "@mini-openclaw/protocol";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config/config.js";
import { UserError } from "../../lib/user-error.js";
import type { ChangeTracker } from "../../checkpoints/change-tracker.js";
import { applyRewind, planRewind, revertFile, unchanged } from "../../checkpoints/undo-changes.js";
import { branchTo, hasTurn, turnTree } from "../../sessions/session-branches.js";
import { assertSessionId } from "../../sessions/session-id.js";
import { noSuchTurn, type SessionStore } from "../../sessions/session-store.js";
import { type TurnRegistry } from "../../turns/turn-registry.js";
import type { UiEventBus } from "../../ui-events/ui-event-bus.js";
import { routeOf, typed } from "../api-route.js";

interface ChangeDeps {
  ui: UiEventBus;
  config: Config;
  sessions: SessionStore;
  turns: TurnRegistry;
  changes: ChangeTracker;
}

const MAX_DIFF_BYTES = 2 * 1024 * 1024;
const asText = (data: Buffer | null) => (data === null || data.length > MAX_DIFF_BYTES || data.subarray(0, 8192).includes(0) ? null : data.toString("utf8"));

/** What tool calls changed on disk, and putting it back: one file, or everything from a turn on. */
export async function changeRoutes(app: FastifyInstance, { config, sessions, turns, changes, ui }: ChangeDeps) {
  const known = async (raw: string) => {
    const id = assertSessionId(raw);
    await sessions.require(id);
    return id;
  };
  /** Claims the session for the time of an undo: no turn starts meanwhile (and none may be running). */
  const whileIdle = async <T>(id: string, work: () => Promise<T>): Promise<T> => {
    turns.claim(id, `Session ${id} has a turn running; stop it or wait for it before putting files back.`);
    try {
      return await work();
    } finally {
      turns.release(id);
    }
  };
  const tell = (id: string, paths: string[]) => (paths.length ? sessions.append(id, { type: "meta", ts: new Date().toISOString(), reverted: paths }) : Promise.resolve());

  typed(app).route({
    ...routeOf(api.changes.list),
    handler: async (request) => {
      const id = await known(request.params.id);
      const turn = request.query.turn !== undefined ? Number(request.query.turn) : null;
      const recorded = (await changes.calls(id)).filter((c) => turn === null || c.turn === turn);
      // Each file as it is now: one that is back to its state before the call shows as reverted.
      const now = await changes.currentHashes([...new Set(recorded.flatMap((c) => c.files.map((f) => f.path)))]);
      const calls: CallChanges[] = recorded.map((c) => ({
        change: c.change,
        turn: c.turn,
        call_id: c.call_id,
        tool: c.tool,
        at: c.at,
        files: c.files.map(({ before, after, before_mode: _m, ...shown }) => ({ ...shown, reverted: before !== after && unchanged(now.get(shown.path), before) })),
        ...(c.untracked ? { untracked: c.untracked } : {}),
      }));
      return { session_id: id, turn, calls };
    },
  });

  typed(app).route({
    ...routeOf(api.changes.diff),
    handler: async (request) => {
      const call = await changes.find(request.params.change);
      if (!call) throw new UserError("not_found", `No recorded change ${request.params.change}.`);
      const file = call.files.find((f) => f.path === request.query.path);
      if (!file) throw new UserError("not_found", `The change ${call.change} did not touch ${request.query.path}.`);
      const read = (hash: string | null) => (hash ? changes.blobs.get(hash).catch(() => null) : Promise.resolve(null));
      const now = (await changes.currentHashes([file.path])).get(file.path)!;
      return {
        change: call.change,
        path: file.path,
        kind: file.kind,
        before: asText(await read(file.before)),
        after: asText(await read(file.after)),
        current_differs: file.after === null ? now.exists : now.hash !== file.after,
      };
    },
  });

  typed(app).route({ ...routeOf(api.changes.revert), handler: async (request) => {
    const { change, path, force } = request.body;
    const sessionId = change.split("~")[0];
    const id = await known(sessionId).catch(() => {
      throw new UserError("not_found", `No recorded change ${change}.`);
    });
    return whileIdle(id, async () => {
      const { action } = await revertFile(changes, config.dataRoot, change, path, force === true);
      await tell(id, [path]);
      return { reverted: path, action };
    });
  } });

  typed(app).route({
    ...routeOf(api.changes.rewind),
    handler: async (request) => {
      const id = await known(request.params.id);
      const { turn, files = false, conversation = false, on_conflict = "fail" } = request.body;
      if (!files && !conversation) throw new UserError("invalid_request", "Nothing to rewind: send files: true, conversation: true, or both.");
      return whileIdle(id, async () => {
        const tree = turnTree(await sessions.entries(id));
        if (!hasTurn(tree, turn)) throw new UserError("invalid_request", noSuchTurn(id, turn, tree));
        const reply: RewindReply = { session_id: id, turn, files: { restored: [], removed: [], skipped: [], untracked: [] }, conversation_leaf: null };
        if (files) {
          // That turn and the turns after it on its branch (the current one when the turn is on it).
          const branch = branchTo(tree, tree.leaf).includes(turn) ? branchTo(tree, tree.leaf) : branchTo(tree, turn);
          const from = new Set(branch.slice(branch.indexOf(turn)));
          const outcome = await applyRewind(changes, config.dataRoot, planRewind(await changes.calls(id), from), on_conflict);
          if (outcome.conflicts.length && on_conflict === "fail") {
            throw new UserError("conflict", `These files changed since turn ${turn} (by you or another program), so nothing was put back: ${outcome.conflicts.join(", ")}. Send on_conflict: "skip" to put back the others, or "overwrite" to put back these too.`, { conflicts: outcome.conflicts });
          }
          reply.files = { restored: outcome.restored, removed: outcome.removed, skipped: outcome.skipped, untracked: outcome.untracked };
          await tell(id, [...outcome.restored, ...outcome.removed]);
        }
        if (conversation) {
          const leaf = tree.parents.get(turn) ?? 0;
          await sessions.append(id, { type: "meta", ts: new Date().toISOString(), leaf });
          reply.conversation_leaf = leaf;
          ui.publish({ type: "refresh", target: "sessions" });
        }
        return reply;
      });
    },
  });
}
