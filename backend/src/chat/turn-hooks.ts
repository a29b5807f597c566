/**
 * The user's hooks for one turn: each occasion of the turn (its start, its message, every tool call,
 * the agent about to stop, a call waiting for approval) run as the hooks that match it, every run an
 * event in the turn's stream, and what they decided together taken as the loop's ports take it
 * (agent/hook-ports.ts). Several hooks on one occasion: a deny beats an ask, an ask beats an allow;
 * the first rewrite in file order is the one used; their contexts all go to the model.
 */
import type { ChatEvent, HookEventName, HookRunEvent } from "@mini-openclaw/protocol";
import { type BeforeToolDecision, MAX_STOP_CONTINUES, type TurnHooks } from "../agent/hook-ports.js";
import { MEMORY_FILE } from "../config/data-root-layout.js";
import type { HookOccasion, Hooks } from "../hooks/hooks.js";
import { hookToolNames } from "../tool-names/claude-code-tool-names.js";

const contexts = (runs: HookRunEvent[]) => runs.flatMap((run) => (run.additional_context ? [run.additional_context] : []));
const reasons = (runs: HookRunEvent[]) => runs.flatMap((run) => (run.reason ? [run.reason] : [])).join("; ");

/** What PreToolUse hooks decided together. */
function beforeTool(runs: HookRunEvent[]): BeforeToolDecision {
  const decided = (decision: string) => runs.filter((run) => run.decision === decision);
  const context = contexts(runs).join("\n\n");
  const withContext = context ? { context } : {};
  const denied = [...decided("deny"), ...decided("stop")];
  if (denied.length > 0) return { decision: "deny", reason: reasons(denied) || "no reason given", ...withContext };
  const rewrite = runs.find((run) => run.updated_input !== undefined)?.updated_input as Record<string, unknown> | undefined;
  const base = { ...withContext, ...(rewrite ? { input: rewrite } : {}) };
  for (const decision of ["ask", "allow"] as const) {
    const these = decided(decision);
    const reason = reasons(these);
    if (these.length > 0) return { decision, ...(reason ? { reason } : {}), ...base };
  }
  return base;
}

export interface TurnHookRunner extends TurnHooks {
  /** A new session's first turn: SessionStart hooks; their context for the model. */
  sessionStart(): Promise<string[]>;
  /** The user's message: UserPromptSubmit hooks; their context, or why they blocked it. */
  promptSubmit(prompt: string): Promise<{ context: string[]; blocked: string | null }>;
  /** A call waits for the user: Notification hooks. */
  notify(type: string, message: string): Promise<void>;
  /** The history is about to be summarized: PreCompact hooks (they decide nothing). */
  preCompact(trigger: "auto" | "manual"): Promise<void>;
}

/**
 * `subagent`: the hooks of a sub-agent of the turn: its calls' hooks, and SubagentStop (with its role)
 * where the main agent has Stop.
 */
export function turnHooks(hooks: Hooks, turn: { sessionId: string; turnId: number; emit: (event: ChatEvent) => void; subagent?: { role: string; depth: number } }): TurnHookRunner {
  let stopReason: string | null = null;
  const run = async (event: HookEventName, fields: Record<string, unknown>, extra: Partial<HookOccasion> = {}, shown: (run: HookRunEvent) => HookRunEvent = (r) => r) => {
    if (!hooks.has(event)) return [];
    const runs = await hooks.run({ event, fields, sessionId: turn.sessionId, turn: turn.turnId, ...extra }, (r) => turn.emit(shown(r)));
    const stop = runs.find((r) => r.decision === "stop");
    if (stop && event !== "Stop") stopReason ??= stop.reason ?? "a hook said not to continue";
    return runs;
  };
  return {
    async sessionStart() {
      return contexts(await run("SessionStart", { source: "startup" }, { names: ["startup"] }));
    },
    async promptSubmit(prompt) {
      const runs = await run("UserPromptSubmit", { prompt });
      const blocking = runs.filter((r) => r.decision === "block" || r.decision === "stop");
      return { context: contexts(runs), blocked: blocking.length > 0 ? reasons(blocking) || "a UserPromptSubmit hook blocked it" : null };
    },
    async notify(type, message) {
      await run("Notification", { notification_type: type, message }, { names: [type] });
    },
    async preCompact(trigger) {
      await run("PreCompact", { trigger, custom_instructions: "" }, { names: [trigger] });
    },
    tools: {
      async before({ id, tool, input }) {
        return beforeTool(await run("PreToolUse", { tool_name: tool, tool_input: input, tool_use_id: id }, { names: hookToolNames(tool, false), callId: id }));
      },
      async after({ id, tool, input, result, changedFiles }) {
        const fields = { tool_name: tool, tool_input: { ...(input as object), ...(changedFiles.length > 0 ? { file_path: changedFiles[0], file_paths: changedFiles } : {}) }, tool_use_id: id };
        const runs = await run("PostToolUse", { ...fields, tool_response: { output: result.output, ok: result.ok, changed_files: changedFiles } }, { names: hookToolNames(tool, changedFiles.length > 0), callId: id });
        // What the agent wrote to memory: the workbench's own event.
        const memory = changedFiles.filter((path) => path === MEMORY_FILE || path.startsWith("memory/"));
        if (memory.length > 0) await run("MemoryWrite", { by: "agent", tool_name: tool, tool_use_id: id, file_paths: memory }, { names: memory, callId: id });
        const blocked = runs.filter((r) => r.decision === "block");
        const context = contexts(runs).join("\n\n");
        return { ...(blocked.length > 0 ? { failed: reasons(blocked) || "no reason given" } : {}), ...(context ? { context } : {}) };
      },
    },
    async stop(answer, continued) {
      const past = continued >= MAX_STOP_CONTINUES;
      const note = `not acted on: ${turn.subagent ? "SubagentStop" : "Stop"} hooks already made the agent go on ${MAX_STOP_CONTINUES} times`;
      // Past the bound the hooks still run (and are shown), but what they ask is not done.
      const event = turn.subagent ? "SubagentStop" : "Stop";
      const who = turn.subagent ? { agent_type: turn.subagent.role, agent_depth: turn.subagent.depth } : {};
      const runs = await run(event, { stop_hook_active: continued > 0, last_assistant_message: answer, ...who }, turn.subagent ? { names: [turn.subagent.role] } : {}, (r) => (past && r.decision === "block" ? { ...r, decision: undefined, note } : r));
      const stopped = runs.find((r) => r.decision === "stop");
      if (stopped) return null;
      const goOn = runs.filter((r) => r.decision === "block");
      return goOn.length > 0 && !past ? reasons(goOn) || "a Stop hook asks you to go on" : null;
    },
    stopped: () => stopReason,
  };
}
