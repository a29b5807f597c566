/**
 * What the agent loop asks of hooks, as ports the turn fills in (chat/turn-hooks.ts): before a
 * call runs, after it ran, and when the agent would stop. The loop applies what they decide, so a
 * hook's decision is a policy of the loop, like an approval; the text the model reads of a hook is
 * written here once, for the live turn and for the history derived from the session alike.
 */
import type { ToolResult } from "../tools/core-tool.js";

export interface BeforeToolDecision {
  /** allow: runs without asking (a deny rule still refuses); deny: refused with `reason`; ask: the approval card. */
  decision?: "allow" | "deny" | "ask";
  reason?: string;
  /** The input to run the tool with instead of the model's (checked again like the model's). */
  input?: Record<string, unknown>;
  /** Text added to what the model reads of the call's result. */
  context?: string;
}

export interface AfterToolDecision {
  /** The hook marked the result as a failure, with this reason (the model reads it). */
  failed?: string;
  context?: string;
}

export interface ToolHooks {
  before(call: { id: string; tool: string; input: unknown }): Promise<BeforeToolDecision>;
  after(call: { id: string; tool: string; input: unknown; result: ToolResult; changedFiles: string[] }): Promise<AfterToolDecision>;
}

export interface TurnHooks {
  tools?: ToolHooks;
  /**
   * The agent answered without calling a tool: a reason to go on (the model reads it as the user's
   * message), or null to end. `continued`: how often Stop hooks made it go on in this turn so far.
   */
  stop?(answer: string, continued: number): Promise<string | null>;
  /** Why a hook said the turn must not continue (`continue: false`), once one has. */
  stopped?(): string | null;
}

/** No more than this many times does a Stop hook make one turn go on: a hook that always says so cannot loop it. */
export const MAX_STOP_CONTINUES = 5;

/** A text the model reads (a tool's result, the user's message), with what hooks added: their context, a failure they marked. */
export function withHookNotes(output: string, notes: { failed?: string; context?: string[] }): string {
  const parts = [output];
  if (notes.failed) parts.push(`[A PostToolUse hook marked this result as a failure: ${notes.failed}]`);
  for (const context of notes.context ?? []) parts.push(`[Hook context: ${context}]`);
  return parts.join("\n\n");
}

/** The message the model gets when a Stop hook makes it go on. */
export function stopHookMessage(reason: string): string {
  return `A Stop hook asks you to continue before you finish: ${reason}`;
}
