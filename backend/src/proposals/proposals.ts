/**
 * The review queue: proposals made from the memory helper's answers, shown with what stops each hunk
 * now (stale, a secret), and applied only by a person's decision. An accepted hunk is written as a
 * recorded change of the helper turn that proposed it (ChangeTracker), so Revert and Rewind take it
 * back; a rejected one is remembered and not proposed again.
 */
import type { ChangesEvent, Proposal, ProposalDecision, ProposalDetail, ProposalHunk, ProposalListReply, ProposalView } from "@mini-openclaw/protocol";
import { SKILLS_DIR } from "../config/data-root-layout.js";
import type { ChangeTracker } from "../checkpoints/change-tracker.js";
import { UserError } from "../lib/user-error.js";
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { readConfinedTextIfPresent } from "../paths/read-confined-file.js";
import { isConfinedDir } from "../paths/walk-confined-dir.js";
import type { SecretScrubber } from "../secrets/secret-scrubber.js";
import type { HelperAnswer } from "./helper-answer.js";
import { applyHunk, proposedContent, staleReason } from "./proposal-hunks.js";
import { hunkFingerprint, newProposalId, type ProposalStore } from "./proposal-store.js";
import { memoryTarget, skillFileText, skillTarget } from "./proposal-target.js";
import { secretIn } from "./secret-flags.js";

/** A file a proposal edits is read up to this size (the memory files are far smaller). */
const MAX_TARGET_BYTES = 2 * 1024 * 1024;
export const ACCEPT_TOOL = "accept_proposal";

export interface ProposalOrigin {
  by: Proposal["by"];
  sessionId: string;
  turn: number;
}

export interface ProposalsDeps {
  dataRoot: string;
  store: ProposalStore;
  changes: Pick<ChangeTracker, "record">;
  secrets: Pick<SecretScrubber, "scrub">;
  /** The prompt's per-file budget: a memory file past it is cut in every prompt. */
  promptFileChars: number;
  /** The queue changed (every open page is told). */
  changed: () => void;
  /** A person's accept wrote this file (the MemoryWrite hooks). */
  written: (path: string, content: string) => void;
}

/** What one helper answer came to. */
export interface MadeProposals {
  created: Proposal[];
  /** Edits or skills refused (a file that is not memory, a clashing name), each with why. */
  refused: string[];
  /** Edits left out as proposed before and rejected, or waiting already. */
  repeated: number;
}

export class Proposals {
  /** Decisions one at a time: two accepts of one file never interleave their read and write. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: ProposalsDeps) {}

  private read(target: string): Promise<string | null> {
    return readConfinedTextIfPresent(this.deps.dataRoot, target, MAX_TARGET_BYTES);
  }

  /** Every hunk of the answer as proposals, its refusals stored as such (reported, never applicable). */
  async fromAnswer(answer: HelperAnswer, origin: ProposalOrigin): Promise<MadeProposals> {
    const { store } = this.deps;
    await store.ready();
    const waiting = new Set(store.all().flatMap((p) => p.hunks.filter((h) => h.state === "pending").map((h) => hunkFingerprint(p.target, h))));
    const made: MadeProposals = { created: [], refused: [], repeated: 0 };
    const fresh = (target: string, hunks: ProposalHunk[]) =>
      hunks.filter((h) => {
        const print = hunkFingerprint(target, h);
        const seen = store.wasRejected(print) || waiting.has(print);
        if (seen) made.repeated += 1;
        return !seen;
      });
    const base = { v: 1 as const, by: origin.by, created_at: new Date().toISOString(), session_id: origin.sessionId, turn: origin.turn };
    const save = async (proposal: Omit<Proposal, "v" | "by" | "created_at" | "session_id" | "turn" | "id">) => {
      const full: Proposal = { ...base, id: newProposalId(), ...proposal };
      await store.put(full);
      if (proposal.refused) made.refused.push(proposal.refused);
      else made.created.push(full);
    };
    for (const entry of answer.memory) {
      const hunks: ProposalHunk[] = entry.edits.map((e) => ({ ...e, state: "pending" }));
      const target = memoryTarget(entry.file);
      if ("refused" in target) {
        await save({ kind: "memory", target: entry.file.slice(0, 300), summary: entry.summary.slice(0, 2000), refused: target.refused, hunks: hunks.slice(0, 200) });
        continue;
      }
      const kept = fresh(target.target, hunks).slice(0, 200);
      if (kept.length > 0) await save({ kind: "memory", target: target.target, summary: entry.summary.slice(0, 2000), hunks: kept });
    }
    for (const skill of answer.skills) {
      const target = skillTarget(skill.name.trim());
      const text = skillFileText(skill.name.trim(), skill.description, skill.body);
      const hunk: ProposalHunk = { op: "create", text, reason: skill.reason, sources: skill.sources, state: "pending" };
      const summary = `A skill: ${skill.description}`.slice(0, 2000);
      if ("refused" in target) {
        await save({ kind: "skill", target: `${SKILLS_DIR}/${skill.name.slice(0, 80)}`, summary, refused: target.refused, hunks: [hunk] });
        continue;
      }
      const folder = target.target.slice(0, target.target.lastIndexOf("/"));
      const folderExists = await isConfinedDir(this.deps.dataRoot, folder);
      const current = folderExists ? await this.read(target.target).catch(() => null) : null;
      if (current === null && folderExists) {
        await save({ kind: "skill", target: target.target, summary, refused: `The folder ${folder}/ exists and is not a skill the helper can edit; choose another name.`, hunks: [hunk] });
        continue;
      }
      // A skill that exists: its new text as a change of the whole file (the diff shows what moved).
      const edit: ProposalHunk = current === null ? hunk : { ...hunk, op: "change", old: current };
      const kept = fresh(target.target, [edit]);
      if (kept.length > 0) await save({ kind: "skill", target: target.target, summary, hunks: kept });
    }
    if (made.created.length > 0 || made.refused.length > 0) this.deps.changed();
    return made;
  }

  private async view(proposal: Proposal, current?: string | null): Promise<ProposalView> {
    const now = current !== undefined ? current : await this.read(proposal.target).catch(() => null);
    const hunks = proposal.hunks.map((h) => ({
      ...h,
      stale: h.state === "pending" && !proposal.refused ? staleReason(now, h) : null,
      secret: h.state === "pending" ? secretIn(`${h.text ?? ""}`, this.deps.secrets) : null,
    }));
    const pending = proposal.refused ? 0 : hunks.filter((h) => h.state === "pending").length;
    let overBudget: string | null = null;
    if (proposal.kind === "memory" && pending > 0) {
      const size = proposedContent(now, proposal.hunks).length;
      if (size > this.deps.promptFileChars) {
        overBudget = `Accepted whole, ${proposal.target} would be ${size} characters, over the prompt's ${this.deps.promptFileChars} per file (the rest is cut from every prompt): fold older facts into fewer lines, or remove some, before accepting more.`;
      }
    }
    return { ...proposal, hunks, pending, over_budget: overBudget };
  }

  async list(query: { state?: "pending" | "all"; offset?: number; limit?: number }): Promise<ProposalListReply> {
    await this.deps.store.ready();
    const all = this.deps.store.all();
    const waiting = all.filter((p) => !p.refused && p.hunks.some((h) => h.state === "pending"));
    const matching = query.state === "pending" ? waiting : all;
    const offset = query.offset ?? 0;
    const page = matching.slice(offset, offset + (query.limit ?? 50));
    // Each file once for the page, however many proposals edit it.
    const files = new Map<string, Promise<string | null>>();
    const current = (target: string) => files.get(target) ?? files.set(target, this.read(target).catch(() => null)).get(target)!;
    return { proposals: await Promise.all(page.map(async (p) => this.view(p, await current(p.target)))), total: matching.length, pending: waiting.length };
  }

  private async find(id: string): Promise<Proposal> {
    await this.deps.store.ready();
    const proposal = this.deps.store.get(id);
    if (!proposal) throw new UserError("not_found", `No proposal ${id.slice(0, 64)}.`);
    return proposal;
  }

  async detail(id: string): Promise<ProposalDetail> {
    const proposal = await this.find(id);
    const current = await this.read(proposal.target).catch(() => null);
    return { proposal: await this.view(proposal, current), current, proposed: proposal.refused ? (current ?? "") : proposedContent(current, proposal.hunks) };
  }

  /** A person's decision on one hunk or every pending one. */
  decide(id: string, decision: ProposalDecision): Promise<{ proposal: ProposalView; change: string | null }> {
    const run = this.queue.then(() => this.decideNow(id, decision));
    this.queue = run.catch(() => {});
    return run;
  }

  private async decideNow(id: string, { hunk, decision, text }: ProposalDecision): Promise<{ proposal: ProposalView; change: string | null }> {
    const proposal = await this.find(id);
    if (proposal.refused) throw new UserError("conflict", `This proposal was refused and cannot be applied: ${proposal.refused}`);
    if (text !== undefined && (hunk === undefined || decision !== "accept")) throw new UserError("invalid_request", "'text' (edit then accept) goes with one hunk's accept.");
    if (hunk !== undefined && hunk >= proposal.hunks.length) throw new UserError("invalid_request", `The proposal has ${proposal.hunks.length} hunks; there is no hunk ${hunk}.`);
    const chosen = hunk !== undefined ? [hunk] : proposal.hunks.flatMap((h, i) => (h.state === "pending" ? [i] : []));
    for (const i of chosen) if (proposal.hunks[i].state !== "pending") throw new UserError("conflict", `Hunk ${i} was ${proposal.hunks[i].state} already.`);
    if (chosen.length === 0) throw new UserError("conflict", "Nothing in this proposal waits for a decision.");
    const at = new Date().toISOString();
    const hunks = [...proposal.hunks];
    if (decision === "reject") {
      for (const i of chosen) hunks[i] = { ...hunks[i], state: "rejected", decided_at: at };
      await this.deps.store.reject(chosen.map((i) => hunkFingerprint(proposal.target, proposal.hunks[i])));
      return this.saved({ ...proposal, hunks }, null);
    }
    // Accept: each hunk applied to the file as it is now, in order; a stale or flagged one stops all.
    let content = await this.read(proposal.target);
    for (const i of chosen) {
      const written = text ?? hunks[i].text ?? "";
      const secret = secretIn(written, this.deps.secrets);
      if (secret) throw new UserError("conflict", `Hunk ${i} was not applied: ${secret} Edit it out, then accept.`);
      const applied = applyHunk(content, hunks[i], text);
      if ("stale" in applied) throw new UserError("conflict", `Hunk ${i} was not applied: ${applied.stale}`, { stale: true });
      content = applied.content;
    }
    const target = proposal.target;
    const { changes } = await this.deps.changes.record(
      { sessionId: proposal.session_id, turn: proposal.turn, callId: `${proposal.id}_${chosen.join("_")}`, tool: ACCEPT_TOOL },
      () => writeConfinedAtomic(this.deps.dataRoot, target, content!),
    );
    const change = (changes as ChangesEvent | null)?.change ?? null;
    for (const i of chosen) hunks[i] = { ...hunks[i], state: "accepted", decided_at: at, ...(change ? { change } : {}), ...(text !== undefined ? { edited: true, text } : {}) };
    this.deps.written(target, content!);
    return this.saved({ ...proposal, hunks }, change);
  }

  private async saved(proposal: Proposal, change: string | null) {
    await this.deps.store.put(proposal);
    this.deps.changed();
    return { proposal: await this.view(proposal), change };
  }
}
