/**
 * The memory helper's turns: a consolidation run (what is new since the last run, read within its
 * budget) and Save as skill (one turn's steps). Each is an ordinary turn with no tools, sent as
 * `by: "consolidation"`; when it ends, its answer becomes proposals in the review queue.
 */
import { MEMORY_PROPOSAL_FILES, type SessionEntry } from "@mini-openclaw/protocol";
import { UserError } from "../lib/user-error.js";
import { readConfinedTextIfPresent } from "../paths/read-confined-file.js";
import type { LiveTurn } from "../turns/live-turn.js";
import { gatherMaterial, type MaterialSources } from "./consolidation-material.js";
import { parseHelperAnswer } from "./helper-answer.js";
import { consolidationMessage, saveAsSkillMessage, turnSteps } from "./helper-prompts.js";
import type { Proposals } from "./proposals.js";

/** The request a helper turn starts with (prepare-turn's `TurnRequest` fields it sets). */
export interface HelperTurn {
  message: string;
  tools: false;
  helper: { modelMessage: string; by: "consolidation" };
}

export interface MemoryHelperDeps {
  dataRoot: string;
  sessions: MaterialSources["sessions"] & { entries(id: string): Promise<SessionEntry[]>; require(id: string): Promise<void> };
  changedFiles: MaterialSources["changedFiles"];
  proposals: Proposals;
  promptFileChars: number;
}

const MAX_MEMORY_FILE_BYTES = 1024 * 1024;

export class MemoryHelper {
  constructor(private readonly deps: MemoryHelperDeps) {}

  /** A consolidation run's turn: what is new since `since` (null: everything), newest first, within `budget` characters. */
  async consolidationTurn(since: string | null, budget: number): Promise<HelperTurn> {
    const { deps } = this;
    const material = await gatherMaterial({ dataRoot: deps.dataRoot, sessions: deps.sessions, changedFiles: deps.changedFiles }, since, budget);
    const files = await Promise.all(MEMORY_PROPOSAL_FILES.map(async (path) => ({ path, content: await readConfinedTextIfPresent(deps.dataRoot, path, MAX_MEMORY_FILE_BYTES).catch(() => null) })));
    const skipped = material.skipped.length > 0 ? ` Not read: ${material.skipped.join("; ")}.` : "";
    const message = `Memory consolidation${since ? ` since ${since}` : ""}: ${material.logs} daily logs and ${material.turns} turns of ${material.sessions} sessions read (${material.chars} of at most ${budget} characters).${skipped}`;
    return { message: message.slice(0, 4000), tools: false, helper: { modelMessage: consolidationMessage(material, files, deps.promptFileChars), by: "consolidation" } };
  }

  /** Save as skill: the helper is shown one turn's steps (a 404 for a session or turn that is not there). */
  async skillTurn(sessionId: string, turn: number, name: string | undefined): Promise<HelperTurn> {
    await this.deps.sessions.require(sessionId);
    const steps = turnSteps(await this.deps.sessions.entries(sessionId), turn);
    if (!steps) throw new UserError("not_found", `Session ${sessionId} has no turn ${turn}.`);
    return {
      message: `Save as skill: turn ${turn} of session ${sessionId}${name ? `, as "${name}"` : ""} (${steps.steps.length} tool calls).`,
      tools: false,
      helper: { modelMessage: saveAsSkillMessage(steps, { sessionId, turn }, name), by: "consolidation" },
    };
  }

  /** A helper turn ended: its answer made into proposals; what it came to, or why it failed. */
  async settle(live: Pick<LiveTurn, "sessionId" | "events">, by: "consolidation" | "save_as_skill"): Promise<{ ok: boolean; detail: string }> {
    const turn = live.events.find((e) => e.event.type === "session")?.event;
    const last = live.events.findLast((e) => e.event.type === "final" || e.event.type === "error")?.event;
    if (last?.type !== "final" || turn?.type !== "session" || turn.turn === undefined) return { ok: false, detail: last?.type === "error" ? last.message : "The helper's turn ended without an answer." };
    const answer = parseHelperAnswer(last.content);
    if (!answer) return { ok: false, detail: `The helper did not answer with the proposals' JSON; nothing was proposed. Its answer began: ${last.content.slice(0, 200)}` };
    const made = await this.deps.proposals.fromAnswer(answer, { by, sessionId: live.sessionId, turn: turn.turn });
    const hunks = made.created.reduce((n, p) => n + p.hunks.length, 0);
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    const parts = [`${plural(made.created.length, "proposal")} (${plural(hunks, "edit")}) for review`];
    if (made.repeated > 0) parts.push(`${made.repeated} left out as rejected before or waiting already`);
    if (made.refused.length > 0) parts.push(`${made.refused.length} refused: ${made.refused.join(" ")}`);
    if (answer.dropped.length > 0) parts.push(`${answer.dropped.length} not in the asked shape (${answer.dropped.slice(0, 5).join("; ")})`);
    return { ok: true, detail: `${parts.join("; ")}.` };
  }
}
