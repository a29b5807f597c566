import type { RunningDelegation } from "@mini-openclaw/protocol";
import type { Config } from "../config/config.js";
import type { ResolvedProfile } from "../config/resolved-profile.js";
import type { ChatEvent } from "@mini-openclaw/protocol";
import type { TurnHooks } from "../agent/hook-ports.js";
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
  /**
   * The profiles a role's agent calls (the first, then its fallbacks): a role's `model:` that names a
   * profile is that profile; any other `model:` is that model name on the turn's profile; none, the turn's.
   */
  modelsFor(roleModel: string | undefined): ResolvedProfile[];
  /** Sub-agents may delegate down to this depth (1 = only the main agent delegates). */
  maxDepth: number;
  /** Wall time one sub-agent may take, its own delegations included. */
  timeoutMs: number;
  maxSteps: number;
  registry: DelegationRegistry;
  log: { error(obj: object, msg: string): void };
  /** The session's approval step: a sub-agent's commands ask like the main agent's. */
  approve?: Approver;
  /**
   * The user's hooks for a sub-agent, their runs shown in its trace (`emit`): PreToolUse and
   * PostToolUse on its calls, SubagentStop when it would answer. None when absent.
   */
  hooksFor?: (agent: { role: string; depth: number }, emit: (event: ChatEvent) => void) => TurnHooks;
}

/**
 * The runtime for a turn's agents, from the configuration: `maxDepth` 0 for agents that must not
 * delegate. `turn`: the profiles the turn calls; `profiles(name)`: a profile's chain, or [] when there is none of that name.
 */
export function delegationRuntime(
  config: Config,
  roles: Role[],
  registry: DelegationRegistry,
  log: DelegationRuntime["log"],
  models: { turn: ResolvedProfile[]; profiles: (name: string) => ResolvedProfile[] },
  maxDepth = config.delegation.maxDepth,
): DelegationRuntime {
  const modelsFor = (roleModel: string | undefined) => {
    if (!roleModel) return models.turn;
    const named = models.profiles(roleModel);
    if (named.length > 0) return named;
    // A bare model name keeps its old meaning: that model on the turn's endpoint (the fallbacks' endpoints may not have it).
    const [first] = models.turn;
    return [{ ...first, model: { ...first.model, model: roleModel }, fallbacks: [] }];
  };
  return { roles, modelsFor, maxDepth, timeoutMs: config.delegation.timeoutMs, maxSteps: config.limits.maxSteps, registry, log };
}
