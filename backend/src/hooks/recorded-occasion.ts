/**
 * An occasion for a hook's test run, taken from what a session recorded: a past tool call (with its
 * result, for PostToolUse), the last message, the last answer. Nothing is run but the hook.
 */
import type { HookEventName, SessionEntry, StoredEvent } from "@mini-openclaw/protocol";
import { UserError } from "../lib/user-error.js";
import { hookToolNames } from "../tool-names/claude-code-tool-names.js";
import type { HookOccasion } from "./hooks.js";

const eventsOf = (entries: SessionEntry[]): StoredEvent[] => entries.flatMap((entry) => (entry.type === "event" ? [entry.event] : []));

export function recordedOccasion(event: HookEventName, sessionId: string | undefined, entries: SessionEntry[], callId?: string): HookOccasion {
  const base = { event, ...(sessionId ? { sessionId } : {}) };
  const events = eventsOf(entries);
  switch (event) {
    case "PreToolUse":
    case "PostToolUse": {
      const calls = events.filter((e): e is Extract<StoredEvent, { type: "tool_call" }> => e.type === "tool_call");
      const call = callId ? calls.find((c) => c.id === callId) : calls.at(-1);
      if (!call) throw new UserError("not_found", callId ? `No tool call ${callId} is recorded in this session.` : "This session has no tool call to test the hook against: run a turn that calls a tool first.");
      const result = events.find((e): e is Extract<StoredEvent, { type: "tool_result" }> => e.type === "tool_result" && e.id === call.id);
      const fields: Record<string, unknown> = { tool_name: call.name, tool_input: call.input, tool_use_id: call.id };
      if (event === "PostToolUse") fields.tool_response = { output: result?.output ?? "", ok: result?.ok ?? false, changed_files: [] };
      return { ...base, names: hookToolNames(call.name, false), fields, callId: call.id };
    }
    case "UserPromptSubmit": {
      const prompt = entries.findLast((entry) => entry.type === "user");
      return { ...base, fields: { prompt: prompt?.type === "user" ? prompt.content : "" } };
    }
    case "Stop":
    case "SubagentStop": {
      const final = events.findLast((e) => e.type === "final");
      return { ...base, fields: { stop_hook_active: false, last_assistant_message: final?.type === "final" ? final.content : "" } };
    }
    case "SessionStart":
      return { ...base, names: ["startup"], fields: { source: "startup" } };
    case "PreCompact":
      return { ...base, names: ["manual"], fields: { trigger: "manual", custom_instructions: "" } };
    case "Notification":
      return { ...base, names: ["permission_prompt"], fields: { notification_type: "permission_prompt", message: "A call waits for your approval (a test)" } };
    case "SessionEnd":
      return { ...base, names: ["deleted"], fields: { reason: "deleted" } };
    case "TaskRun":
      return { ...base, names: ["test"], fields: { task_name: "test", status: "ok" } };
    case "MemoryWrite":
      return { ...base, names: ["memory/MEMORY.md"], fields: { by: "user", file_paths: ["memory/MEMORY.md"] } };
  }
}
