/**
 * Calls waiting for the user, in memory: one entry per `approval_request`, decided by the route
 * (`POST /api/approvals/:id`), by the clock (denied when it expires) or by Stop (the turn's signal).
 */
import type { ApprovalRequestEvent } from "@mini-openclaw/protocol";
import { UserError } from "../lib/user-error.js";

export type UserDecision =
  | { decision: "approve" }
  | { decision: "always"; rule: string }
  | { decision: "deny"; reason?: string };

export type GateOutcome = UserDecision | { decision: "timeout" } | { decision: "stop" };

export interface PendingApproval extends ApprovalRequestEvent {
  session_id: string;
}

export class ApprovalGate {
  private readonly pending = new Map<string, { request: PendingApproval; settle: (outcome: GateOutcome) => void }>();

  /** `onChange`: a request came or went (pages showing what waits read it again). */
  constructor(private readonly onChange: () => void = () => {}) {}

  /** Every request waiting now, oldest first (any tab can show and decide them). */
  list(): PendingApproval[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  /** A call of this session waits for the user now. */
  waiting(sessionId: string): boolean {
    return [...this.pending.values()].some((p) => p.request.session_id === sessionId);
  }

  /** Waits for the user's decision, the expiry, or the signal. */
  wait(request: PendingApproval, signal: AbortSignal): Promise<GateOutcome> {
    return new Promise((resolve) => {
      const done = (outcome: GateOutcome) => {
        if (!this.pending.has(request.id)) return;
        this.pending.delete(request.id);
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.onChange();
        resolve(outcome);
      };
      const onAbort = () => done({ decision: "stop" });
      const timer = setTimeout(() => done({ decision: "timeout" }), Math.max(0, request.expires_at - Date.now()));
      timer.unref();
      this.pending.set(request.id, { request, settle: done });
      this.onChange();
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  decide(id: string, decision: UserDecision): PendingApproval {
    const entry = this.pending.get(id);
    if (!entry) throw new UserError("not_found", `No approval ${id} is waiting (it was decided, it expired, or its turn ended).`);
    entry.settle(decision);
    return entry.request;
  }
}
