import type { RunningDelegation } from "@mini-openclaw/protocol";
import type { Config, ModelConfig } from "../config/config.js";
import type { Approver } from "../approvals/approve-call.js";
import type { Role } from "./parse-role.js";

/** Delegations running now, across sessions, for the status view; `onChange` tells the UI to look again. */
export class DelegationRegistry {
  private readonly running = new Map<string, RunningDelegation>();

  constructor(private readonly onChange: () => void = () => {}) {}

  start(delegation: RunningDelegation): () => void {
    this.running.set(delegation.call_id, delegation);
    this.onChange();
    return () => {
      if (this.running.delete(delegation.call_id)) this.onChange();
    };
  }

  list(): RunningDelegation[] {
    return [...this.running.values()];
  }
}

/** Everything `delegate` needs beyond the ordinary tool context; the same for every call in a turn. */
export interface DelegationRuntime {
  /** The roles as they were on disk when the turn started. */
  roles: Role[];
  model: ModelConfig;
  /** Sub-agents may delegate down to this depth (1 = only the main agent delegates). */
  maxDepth: number;
  /** Wall time one sub-agent may take, its own delegations included. */
  timeoutMs: number;
  maxSteps: number;
  registry: DelegationRegistry;
  log: { error(obj: object, msg: string): void };
  /** The session's approval step: a sub-agent's commands ask like the main agent's. */
  approve?: Approver;
}

/** The runtime for a turn's agents, from the configuration: `maxDepth` 0 for agents that must not delegate. */
export function delegationRuntime(
  config: Config,
  roles: Role[],
  registry: DelegationRegistry,
  log: DelegationRuntime["log"],
  maxDepth = config.delegation.maxDepth,
): DelegationRuntime {
  return { roles, model: config.model, maxDepth, timeoutMs: config.delegation.timeoutMs, maxSteps: config.limits.maxSteps, registry, log };
}
