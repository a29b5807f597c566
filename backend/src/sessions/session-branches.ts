/**
 * A session file as a tree of turns (protocol `UserEntry.parent`): which turn follows which, which
 * branch is current, and the entries of one branch. Turns are named by the ids stored in their
 * entries (`turn`); a line written before turn ids gets the next id after the highest seen so far,
 * which is its position in a file that has only such lines. The model's history and the Stage's
 * replay both start from `entriesOnBranch`; nothing else decides what a branch holds.
 */
import type { BranchTurn, SessionEntry } from "@mini-openclaw/protocol";

export interface TurnTree {
  /** Parent of each turn, by turn id (0: the session's start). */
  parents: Map<number, number>;
  /** The turn ids in the order their `user` entries stand in the file. */
  order: number[];
  /** The turn id of each entry, by index in the file (0: belongs to the session, not to a turn; -1: to a turn whose message was lost). */
  owner: number[];
  /** The current branch's last turn (0 before the first turn). */
  leaf: number;
  /** Messages the user corrected without running them again, by turn: the last correction. */
  edits: Map<number, string>;
}

/** Entries that describe the session itself, kept on every branch. */
const isSessionLevel = (entry: SessionEntry) => entry.type === "header" || entry.type === "snapshot" || entry.type === "meta";

export function turnTree(entries: SessionEntry[]): TurnTree {
  const parents = new Map<number, number>();
  const order: number[] = [];
  const owner: number[] = [];
  let highest = 0;
  /** The turn that entries without a stored turn belong to: the last started, or the one switched to. */
  let current = 0;
  let leaf = 0;
  const edits = new Map<number, string>();
  for (const entry of entries) {
    if (entry.type === "meta" && entry.edit && parents.has(entry.edit.turn)) edits.set(entry.edit.turn, entry.edit.content);
    if (entry.type === "user") {
      // A stored id is kept unless it repeats one already seen (a hand-edited or hostile file).
      const turn = entry.turn !== undefined && !parents.has(entry.turn) ? entry.turn : highest + 1;
      // Before branches, a turn followed the one before it in the file.
      const parent = entry.parent !== undefined && (entry.parent === 0 || parents.has(entry.parent)) ? entry.parent : (order.at(-1) ?? 0);
      parents.set(turn, parent);
      order.push(turn);
      highest = Math.max(highest, turn);
      current = turn;
      leaf = turn;
      owner.push(turn);
    } else if (entry.type === "meta" && entry.leaf !== undefined && (entry.leaf === 0 || parents.has(entry.leaf))) {
      // After a switch, what is recorded (a compaction, a review) belongs to the branch switched to.
      leaf = entry.leaf;
      current = entry.leaf;
      owner.push(0);
    } else if (isSessionLevel(entry)) owner.push(0);
    else {
      // An entry naming a turn whose message line was lost belongs to no branch (-1): it cannot replay alone.
      const stored = "turn" in entry ? entry.turn : undefined;
      owner.push(stored === undefined ? current : parents.has(stored) ? stored : -1);
    }
  }
  return { parents, order, owner, leaf, edits };
}


export const hasTurn = (tree: TurnTree, turn: number) => tree.parents.has(turn);

/** The highest turn id in the file (0 before the first turn): the next turn gets the one above. */
export const maxTurnId = (tree: TurnTree) => tree.order.reduce((a, b) => Math.max(a, b), 0);

/** The turns from the start to `leaf`, in order. */
export function branchTo(tree: TurnTree, leaf: number): number[] {
  const path: number[] = [];
  const seen = new Set<number>();
  for (let turn = leaf; turn > 0 && !seen.has(turn); turn = tree.parents.get(turn) ?? 0) {
    seen.add(turn);
    path.unshift(turn);
  }
  return path;
}

/** The newest turn that continues `turn` (itself when nothing does): where switching to it lands. */
export function newestContinuation(tree: TurnTree, turn: number): number {
  let newest = turn;
  const after = tree.order.slice(tree.order.indexOf(turn) + 1);
  for (const t of after) if (branchTo(tree, t).includes(turn)) newest = t;
  return newest;
}

/**
 * The entries of the branch ending at `leaf` (the current one by default), in file order, with the
 * user's corrections applied: a corrected message reads its new text (a slash command's expansion
 * goes: the model is sent what the user now says).
 */
export function entriesOnBranch(entries: SessionEntry[], tree = turnTree(entries), leaf = tree.leaf): SessionEntry[] {
  const on = new Set([0, ...branchTo(tree, leaf)]);
  return entries.flatMap((entry, i): SessionEntry[] => {
    if (!on.has(tree.owner[i])) return [];
    const corrected = entry.type === "user" ? tree.edits.get(tree.owner[i]) : undefined;
    if (entry.type !== "user") return [entry];
    // Every user entry on the branch names its turn, also one from before turn ids.
    const named = { ...entry, turn: tree.owner[i] };
    if (corrected === undefined) return [named];
    const { model_content: _expanded, ...rest } = named;
    return [{ ...rest, content: corrected, edited: true }];
  });
}

/** The current branch's turns with their forks, for the Stage's switcher. */
export function branchTurns(tree: TurnTree, leaf = tree.leaf): BranchTurn[] {
  return branchTo(tree, leaf).map((turn) => {
    const parent = tree.parents.get(turn) ?? 0;
    const siblings = tree.order.filter((t) => tree.parents.get(t) === parent);
    return { turn, parent, siblings };
  });
}

/**
 * One branch's entries as a session of its own: a straight line, so `parent` and branch switches go
 * (the title and pin stay with the original), and its turns are numbered anew from 1.
 */
export function forkEntries(branch: SessionEntry[]): SessionEntry[] {
  const tree = turnTree(branch);
  const renumbered = new Map(tree.order.map((turn, i) => [turn, i + 1]));
  return branch.flatMap((entry, i): SessionEntry[] => {
    if (entry.type === "meta" || entry.type === "header" || entry.type === "snapshot") return entry.type === "snapshot" ? [entry] : [];
    const turn = renumbered.get(tree.owner[i]);
    if (entry.type === "user") {
      const { parent: _parent, ...rest } = entry;
      return [{ ...rest, turn: turn ?? rest.turn }];
    }
    return [turn !== undefined ? { ...entry, turn } : entry];
  });
}
