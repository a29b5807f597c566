/**
 * The heartbeat's checklist as the user accepted it. `workspace/HEARTBEAT.md` is a file tools can
 * write, and the heartbeat runs it with nobody watching every half hour: one approved write could
 * plant standing orders there. So the heartbeat runs the checklist the user last saved through the
 * workbench or accepted (kept in `storage/heartbeat/`, where no tool writes); a change made any
 * other way is a standing-order change, shown with its diff, that waits until the user accepts it
 * (it runs from then on) or rejects it (the file goes back to the accepted text).
 */
import { createHash } from "node:crypto";
import { STORAGE_DIR } from "../config/data-root-layout.js";
import { UserError } from "../lib/user-error.js";
import { writeConfinedAtomic } from "../paths/confined-path.js";
import { readConfinedTextIfPresent } from "../paths/read-confined-file.js";
import { HEARTBEAT_FILE } from "./heartbeat.js";

const ACCEPTED_FILE = `${STORAGE_DIR}/heartbeat/accepted-checklist.md`;
const CHECKLIST_BYTES = 64 * 1024;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export interface ChecklistChange {
  /** What the heartbeat runs until the change is accepted (null: nothing was ever accepted). */
  accepted: string | null;
  /** The file as it is now. */
  proposed: string;
  sha256: string;
}

export class HeartbeatChecklist {
  /** The change the user was last told of, so each is told once. */
  private told: string | null = null;

  constructor(
    private readonly dataRoot: string,
    /** A change was found that the user has not been told of. */
    private readonly onChange: (file: string) => void,
  ) {}

  private current(): Promise<string | null> {
    return readConfinedTextIfPresent(this.dataRoot, HEARTBEAT_FILE, CHECKLIST_BYTES).catch(() => null);
  }

  private accepted(): Promise<string | null> {
    return readConfinedTextIfPresent(this.dataRoot, ACCEPTED_FILE, CHECKLIST_BYTES).catch(() => null);
  }

  /**
   * At start: a workbench that has no accepted checklist yet (a new one, or one from before standing
   * orders were kept) takes the file as it is now as accepted.
   */
  async start(): Promise<void> {
    if ((await this.accepted()) !== null) return;
    const now = await this.current();
    if (now !== null) await writeConfinedAtomic(this.dataRoot, ACCEPTED_FILE, now);
  }

  /** The change waiting for the user, or null when the file is what was accepted (or gone). */
  async change(): Promise<ChecklistChange | null> {
    const [current, accepted] = await Promise.all([this.current(), this.accepted()]);
    if (current === null || current === accepted) return null;
    const change = { accepted, proposed: current, sha256: sha256(current) };
    if (this.told !== change.sha256) {
      this.told = change.sha256;
      this.onChange(HEARTBEAT_FILE);
    }
    return change;
  }

  /** What a heartbeat runs now: the accepted checklist (a waiting change is not run). */
  async forRun(): Promise<string | null> {
    await this.change();
    return this.accepted();
  }

  /** The user saved the file through the workbench (the Inspector): that text is theirs. */
  async userSaved(text: string): Promise<void> {
    await writeConfinedAtomic(this.dataRoot, ACCEPTED_FILE, text);
  }

  /**
   * The user's decision on the change they saw (named by its hash: a file changed again since is
   * another change, refused with 409). Accept: it runs from now on. Reject: the file is the accepted
   * text again.
   */
  async decide(decision: "accept" | "reject", seen: string): Promise<void> {
    const change = await this.change();
    if (!change || change.sha256 !== seen) throw new UserError("conflict", `${HEARTBEAT_FILE} changed again since it was shown (or the change was decided already): look at it again.`);
    if (decision === "accept") await writeConfinedAtomic(this.dataRoot, ACCEPTED_FILE, change.proposed);
    else await writeConfinedAtomic(this.dataRoot, HEARTBEAT_FILE, change.accepted ?? "");
    this.told = null;
  }
}
