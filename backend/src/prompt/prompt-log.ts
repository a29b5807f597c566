import type { PromptReply } from "@mini-openclaw/protocol";
import type { AssembledPrompt } from "./assemble-prompt.js";

const MAX_SESSIONS = 200;

/** The system prompt each session's last turn was sent, so the UI can show exactly that. */
export class PromptLog {
  private readonly bySession = new Map<string, PromptReply>();

  record(sessionId: string, prompt: AssembledPrompt, mcpTools?: PromptReply["mcp_tools"]): void {
    this.bySession.delete(sessionId);
    this.bySession.set(sessionId, { ...toReply(sessionId, prompt), ...(mcpTools?.length ? { mcp_tools: mcpTools } : {}) });
    if (this.bySession.size > MAX_SESSIONS) this.bySession.delete(this.bySession.keys().next().value as string);
  }

  /** Names of the sections whose text differs from the prompt this session's previous turn was sent. */
  changedSections(sessionId: string, next: AssembledPrompt): string[] {
    const previous = this.bySession.get(sessionId);
    if (!previous) return [];
    return next.sections
      .filter((section) => previous.sections.find((p) => p.name === section.name)?.text !== section.text)
      .map((section) => section.name);
  }

  get(sessionId: string): PromptReply | undefined {
    return this.bySession.get(sessionId);
  }
}

export function toReply(sessionId: string | null, prompt: AssembledPrompt): PromptReply {
  return {
    session_id: sessionId,
    assembled_at: new Date().toISOString(),
    total_chars: prompt.totalChars,
    budget_chars: prompt.budgetChars,
    sections: prompt.sections,
    text: prompt.text,
  };
}
