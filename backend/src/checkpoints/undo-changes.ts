/**
 * Putting files back: one file of one call (revert), or every file a turn and the turns after it
 * changed (rewind). Only files a recorded call touched are ever written; one the user changed since
 * is a conflict, never overwritten unless asked. Writes go by descriptor (confined-path.ts): a link
 * swapped in on the way is never followed out of the data root.
 */
import { UserError } from "../lib/user-error.js";
import { removeConfinedFile, writeConfinedAtomic } from "../paths/confined-path.js";
import type { CallRecord, ChangeTracker, StoredChange } from "./change-tracker.js";

export type Action = "restored" | "removed";

/** Whether a file is still as the last recorded call left it (else the user changed it since). */
/** Whether a file is as a record says (`expected`: its hash, or null for absent). */
export function unchanged(now: { exists: boolean; hash: string | null } | undefined, expected: string | null): boolean {
  return expected === null ? !now?.exists : now?.exists === true && now.hash === expected;
}

/** What is shown of a mode in the record: the permission bits a file is written back with. */
const MODE_BITS = 0o7777;

/** Writes the file's state from before `change` back (or removes a file the call created). */
async function putBack(tracker: ChangeTracker, dataRoot: string, change: StoredChange): Promise<Action> {
  if (change.kind === "created") {
    if (!(await removeConfinedFile(dataRoot, change.path))) throw new UserError("conflict", `${change.path} is a folder now; it was left alone.`);
    return "removed";
  }
  if (!change.restorable || change.before === null) throw new UserError("unprocessable", `${change.path} cannot be put back: ${change.reason ?? "its earlier content was not kept"}.`);
  // Its content and its mode as they were (a 0600 secret stays 0600, a 0755 script stays runnable).
  await writeConfinedAtomic(dataRoot, change.path, await tracker.blobs.get(change.before), change.before_mode !== undefined ? { mode: change.before_mode & MODE_BITS } : {});
  return "restored";
}

export async function revertFile(tracker: ChangeTracker, dataRoot: string, changeId: string, path: string, force: boolean): Promise<{ call: CallRecord; action: Action }> {
  const call = await tracker.find(changeId);
  if (!call) throw new UserError("not_found", `No recorded change ${changeId}.`);
  const change = call.files.find((f) => f.path === path);
  if (!change) throw new UserError("not_found", `The change ${changeId} did not touch ${path}; it touched ${call.files.map((f) => f.path).join(", ") || "nothing"}.`);
  if (!force && !unchanged((await tracker.currentHashes([path])).get(path), change.after)) {
    throw new UserError("conflict", `${path} changed since that call (by you or a later call); send force: true to put it back anyway.`);
  }
  return { call, action: await putBack(tracker, dataRoot, change) };
}

export interface RewindPlan {
  /** Per path, the first change (its state before the turn) and what the last left. */
  paths: Array<{ first: StoredChange; lastAfter: string | null }>;
  /** What the turns' calls may have changed that the record cannot know (so it is not put back). */
  untracked: string[];
}

/** Every path changed by the calls of `turns`, with its state before the first of them. */
export function planRewind(calls: CallRecord[], turns: Set<number>): RewindPlan {
  const byPath = new Map<string, { first: StoredChange; lastAfter: string | null }>();
  const untracked = new Set<string>();
  for (const call of calls) {
    if (!turns.has(call.turn)) continue;
    for (const line of call.untracked ?? []) untracked.add(line);
    for (const file of call.files) {
      const known = byPath.get(file.path);
      if (known) known.lastAfter = file.after;
      else byPath.set(file.path, { first: file, lastAfter: file.after });
    }
  }
  return { paths: [...byPath.values()], untracked: [...untracked].sort() };
}

export interface RewindOutcome {
  restored: string[];
  removed: string[];
  skipped: Array<{ path: string; reason: string }>;
  conflicts: string[];
  untracked: string[];
}

/**
 * Applies a rewind plan. `onConflict`: "fail" writes nothing when any file changed since (the
 * caller answers 409 naming them); "skip" puts the others back and lists those; "overwrite" puts
 * them back too.
 */
export async function applyRewind(tracker: ChangeTracker, dataRoot: string, plan: RewindPlan, onConflict: "fail" | "skip" | "overwrite"): Promise<RewindOutcome> {
  const outcome: RewindOutcome = { restored: [], removed: [], skipped: [], conflicts: [], untracked: plan.untracked };
  const safe: RewindPlan["paths"] = [];
  const now = await tracker.currentHashes(plan.paths.map((item) => item.first.path));
  for (const item of plan.paths) {
    if (unchanged(now.get(item.first.path), item.lastAfter)) safe.push(item);
    else outcome.conflicts.push(item.first.path);
  }
  if (outcome.conflicts.length && onConflict === "fail") return outcome;
  const todo = onConflict === "overwrite" ? plan.paths : safe;
  if (onConflict === "skip") for (const path of outcome.conflicts) outcome.skipped.push({ path, reason: "changed since the turn (by you or another program)" });
  for (const { first } of todo) {
    // The state before the turn: absent (the turn created it) or the first change's before-image.
    const beforeTurn: StoredChange = first;
    try {
      const action = await putBack(tracker, dataRoot, beforeTurn);
      (action === "removed" ? outcome.removed : outcome.restored).push(first.path);
    } catch (err) {
      outcome.skipped.push({ path: first.path, reason: (err as Error).message });
    }
  }
  return outcome;
}
