import { randomUUID } from "node:crypto";
import { tool } from "langchain";
import type { ChatEvent } from "@mini-openclaw/protocol";
import { isUserError } from "../lib/user-error.js";
import { normalizeUserPath } from "../paths/confined-path.js";
import type { ActiveSkill, CoreTool, ToolCall, ToolContext, ToolResult } from "../tools/core-tool.js";
import { skillFolderOf } from "../tools/read-file.js";

export interface ToolHooks {
  /** The step the model is on, for pairing parallel calls. */
  currentStep(): number;
  onStart(): void;
  onEnd(): void;
  /** Unexpected failures (not refusals) are reported here for the log. */
  onCrash(toolName: string, err: unknown): void;
  /** The skill active in this turn, if any (the last SKILL.md read). */
  activeSkill: { current: ActiveSkill | null };
}

/** Reading another skill's SKILL.md is always allowed: that is how the agent switches skills. */
function readsASkill(core: CoreTool, input: unknown, locationPrefix: string): boolean {
  if (core.name !== "read_file") return false;
  try {
    return skillFolderOf(normalizeUserPath((input as { path?: unknown })?.path, locationPrefix)) !== null;
  } catch {
    return false;
  }
}

/** A refusal the model can act on, when the active skill's `allowed-tools` does not list this tool. */
function refusedBySkill(core: CoreTool, input: unknown, context: ToolContext, skill: ActiveSkill | null): ToolResult | null {
  if (!skill?.allowedTools || skill.allowedTools.includes(core.name) || readsASkill(core, input, context.config.locationPrefix)) return null;
  return {
    ok: false,
    output:
      `Error: ${core.name} is not allowed while the skill "${skill.name}" is active: its allowed-tools are ` +
      `${skill.allowedTools.join(", ") || "(none)"}. Use one of those, or finish the skill's steps first.`,
    details: { refused_by_skill: skill.name, allowed_tools: skill.allowedTools },
  };
}

type Writer = (event: ChatEvent) => void;

async function execute(core: CoreTool, input: unknown, context: ToolContext, call: ToolCall, hooks: ToolHooks): Promise<ToolResult> {
  try {
    return await core.execute(input, context, call);
  } catch (err) {
    if (isUserError(err)) return { ok: false, output: `Error: ${err.message}` };
    hooks.onCrash(core.name, err);
    return { ok: false, output: `Error: ${core.name} failed: ${(err as Error)?.message ?? String(err)}` };
  }
}

/**
 * Wraps a core tool for the LangChain agent. Its events go through LangGraph's custom stream
 * writer, so they reach the client in graph order, after the tokens of the step that asked.
 */
export function toLangChainTool(core: CoreTool, context: ToolContext, hooks: ToolHooks) {
  return tool(
    async (input: unknown, config: { toolCall?: { id?: string }; writer?: Writer }) => {
      const write: Writer = config.writer ?? (() => {});
      const id = config.toolCall?.id ?? `call_${randomUUID()}`;
      const startedAt = Date.now();
      hooks.onStart();
      write({ type: "tool_call", id, name: core.name, input, step: hooks.currentStep(), started_at: startedAt });
      let result: ToolResult;
      try {
        result = refusedBySkill(core, input, context, hooks.activeSkill.current) ?? (await execute(core, input, context, { id, write }, hooks));
      } finally {
        hooks.onEnd();
      }
      if (result.activatedSkill) {
        const { name, location, allowedTools } = result.activatedSkill;
        hooks.activeSkill.current = result.activatedSkill;
        write({ type: "skill", name, location, ...(allowedTools ? { allowed_tools: allowedTools } : {}) });
      }
      write({
        type: "tool_result",
        id,
        name: core.name,
        output: result.output,
        ok: result.ok,
        duration_ms: Date.now() - startedAt,
        ...(result.details ? { details: result.details } : {}),
      });
      return result.output;
    },
    { name: core.name, description: core.description, schema: core.schema as never },
  );
}
