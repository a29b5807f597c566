/**
 * A session file as a tree of turns (protocol `UserEntry.parent`): which turn follows which, which
 * branch is current, and the entries of one branch. The model's history and the Stage's replay both
 * start from `entriesOnBranch`; nothing else decides what a branch holds.
 */
import type { BranchTurn, SessionEntry } from "@mini-openclaw/protocol";

export interface TurnTree {
  /** Parent of each turn, by turn number (index 0 unused). */
  parents: number[];
  /** The file index of each entry's turn (0: belongs to the session, not to a turn). */
  owner: number[];
  /** The current branch's last turn (0 before the first turn). */
  leaf: number;
  /** Messages the user corrected without running them again, by turn: the last correction. */
  edits: Map<number, string>;
}

/** Entries that describe the session itself, kept on every branch. */
const isSessionLevel = (entry: SessionEntry) => entry.type === "header" || entry.type === "snapshot" || entry.type === "meta";

export function turnTree(entries: SessionEntry[]): TurnTree {
  const parents = [0];
  const owner: number[] = [];
  let current = 0;
  let leaf = 0;
  const edits = new Map<number, string>();
  for (const entry of entries) {
    if (entry.type === "meta" && entry.edit && entry.edit.turn < parents.length) edits.set(entry.edit.turn, entry.edit.content);
    if (entry.type === "user") {
      const turn = parents.length;
      // Before branches, a turn followed the one before it in the file.
      const parent = entry.parent !== undefined && entry.parent >= 0 && entry.parent < turn ? entry.parent : turn - 1;
      parents.push(parent);
      current = turn;
      leaf = turn;
      owner.push(turn);
    } else if (entry.type === "meta" && entry.leaf !== undefined && entry.leaf > 0 && entry.leaf < parents.length) {
      // After a switch, what is recorded (a compaction, a review) belongs to the branch switched to.
      leaf = entry.leaf;
      current = entry.leaf;
      owner.push(0);
    } else owner.push(isSessionLevel(entry) ? 0 : current);
  }
  return { parents, owner, leaf, edits };
}

export const turnCount = (tree: TurnTree) => tree.parents.length - 1;

/** The turns from the start to `leaf`, in order. */
export function branchTo(tree: TurnTree, leaf: number): number[] {
  const path: number[] = [];
  for (let turn = leaf; turn > 0; turn = tree.parents[turn]) path.unshift(turn);
  return path;
}

/** The newest turn that continues `turn` (itself when nothing does): where switching to it lands. */
export function newestContinuation(tree: TurnTree, turn: number): number {
  let newest = turn;
  for (let t = turn + 1; t < tree.parents.length; t++) {
    let up = t;
    while (up > turn) up = tree.parents[up];
    if (up === turn) newest = t;
  }
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
    if (entry.type !== "user" || corrected === undefined) return [entry];
    const { model_content: _expanded, ...rest } = entry;
    return [{ ...rest, content: corrected, edited: true }];
  });
}

/** The current branch's turns with their forks, for the Stage's switcher. */
export function branchTurns(tree: TurnTree, leaf = tree.leaf): BranchTurn[] {
  return branchTo(tree, leaf).map((turn) => {
    const parent = tree.parents[turn];
    const siblings = tree.parents.flatMap((p, t) => (t > 0 && p === parent ? [t] : []));
    return { turn, parent, siblings };
  });
}

/**
 * One branch's entries as a session of its own: a straight line, so `parent` and branch switches go
 * (the title and pin stay with the original).
 */
export function forkEntries(branch: SessionEntry[]): SessionEntry[] {
  return branch.flatMap((entry): SessionEntry[] => {
    if (entry.type === "meta" || entry.type === "header") return [];
    if (entry.type === "user") {
      const { parent: _parent, ...rest } = entry;
      return [rest];
    }
    return [entry];
  });
}
