/**
 * The proposals as files: `storage/proposals/<id>.json`, one readable JSON each with its state, and
 * `rejected.json`, what the user rejected (so it is not proposed again). Read once, in the background
 * from start (each file confined, capped, checked against the schema; a bad one is skipped and logged):
 * the server answers meanwhile, and whatever asks for a proposal waits for the read. Kept in memory,
 * written through on every change.
 */
import { createHash, randomBytes } from "node:crypto";
import { type Proposal, type ProposalHunk, proposalSchema } from "@mini-openclaw/protocol";
import { z } from "zod";
import { STORAGE_DIR } from "../config/data-root-layout.js";
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { readConfinedText } from "../paths/read-confined-file.js";
import { readConfinedDir } from "../paths/walk-confined-dir.js";

export const PROPOSALS_DIR = `${STORAGE_DIR}/proposals`;
const REJECTED_FILE = `${PROPOSALS_DIR}/rejected.json`;
const MAX_PROPOSAL_BYTES = 4 * 1024 * 1024;
/** Rejections remembered at most (the oldest are forgotten first). */
const MAX_REJECTED = 50_000;
const READ_CONCURRENCY = 16;
const FILE_NAME = /^(prop_[0-9a-f]{12})\.json$/;

export const newProposalId = () => `prop_${randomBytes(6).toString("hex")}`;

/** A hunk's identity for "proposed before": the same edit of the same file, however it is spaced or cased. */
export function hunkFingerprint(target: string, hunk: Pick<ProposalHunk, "op" | "old" | "text">): string {
  const norm = (s: string | undefined) => (s ?? "").toLowerCase().replace(/\s+/g, " ").trim();
  return createHash("sha256").update(`${target}\u0000${hunk.op}\u0000${norm(hunk.old)}\u0000${norm(hunk.text)}`).digest("hex");
}

export class ProposalStore {
  private readonly byId = new Map<string, Proposal>();
  private rejected: string[] = [];
  private rejectedSet = new Set<string>();
  private loading: Promise<void> | null = null;

  constructor(
    private readonly dataRoot: string,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  /** The files read (once; every later call waits for that read). */
  ready(): Promise<void> {
    return (this.loading ??= this.load());
  }

  private async load(): Promise<void> {
    const entries = (await readConfinedDir(this.dataRoot, PROPOSALS_DIR)) ?? [];
    const names = entries.filter((e) => e.kind === "file" && FILE_NAME.test(e.name)).map((e) => e.name);
    for (let i = 0; i < names.length; i += READ_CONCURRENCY) {
      await Promise.all(names.slice(i, i + READ_CONCURRENCY).map(async (name) => {
        try {
          const { content } = await readConfinedText(this.dataRoot, `${PROPOSALS_DIR}/${name}`, MAX_PROPOSAL_BYTES);
          const proposal = proposalSchema.parse(JSON.parse(content));
          if (`${proposal.id}.json` === name) this.byId.set(proposal.id, proposal);
        } catch (err) {
          this.log.warn({ file: name, err: (err as Error).message.slice(0, 300) }, "proposal file skipped");
        }
      }));
    }
    try {
      const { content } = await readConfinedText(this.dataRoot, REJECTED_FILE, MAX_REJECTED * 70 + 1024);
      this.rejected = z.array(z.string().regex(/^[0-9a-f]{64}$/)).parse(JSON.parse(content));
    } catch {
      this.rejected = [];
    }
    this.rejectedSet = new Set(this.rejected);
  }

  /** Newest first. */
  all(): Proposal[] {
    return [...this.byId.values()].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? 1 : -1));
  }

  get(id: string): Proposal | undefined {
    return this.byId.get(id);
  }

  async put(proposal: Proposal): Promise<void> {
    await writeConfinedAtomic(this.dataRoot, `${PROPOSALS_DIR}/${proposal.id}.json`, `${JSON.stringify(proposal, null, 2)}\n`, { mode: 0o600 });
    this.byId.set(proposal.id, proposal);
  }

  wasRejected(fingerprint: string): boolean {
    return this.rejectedSet.has(fingerprint);
  }

  async reject(fingerprints: string[]): Promise<void> {
    const fresh = fingerprints.filter((f) => !this.rejectedSet.has(f));
    if (fresh.length === 0) return;
    this.rejected = [...this.rejected, ...fresh].slice(-MAX_REJECTED);
    this.rejectedSet = new Set(this.rejected);
    await writeConfinedAtomic(this.dataRoot, REJECTED_FILE, `${JSON.stringify(this.rejected)}\n`, { mode: 0o600 });
  }
}
