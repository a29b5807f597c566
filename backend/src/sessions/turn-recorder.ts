import type { ChatEvent, SessionEntry, ToolCallEvent } from "@mini-openclaw/protocol";
import type { SessionStore } from "./session-store.js";

/** While a step streams, its new text is checkpointed at most this often. */
export const CHECKPOINT_MS = 1000;

/**
 * Writes a turn's events into its session as they happen: thoughts and text are gathered per
 * model step and written when the step moves on (a tool starts, the answer is final, or the
 * turn fails); each tool is written when its result arrives. Enough to replay the turn.
 * Meanwhile, what streamed is checkpointed at most once a second (`streaming` entries), so a
 * crash loses at most the last second of what the user saw (streaming-checkpoints.ts).
 */
export function createTurnRecorder(store: SessionStore, sessionId: string, onWriteError: (err: unknown) => void) {
  let firstWriteError: Error | null = null;
  let thought = "";
  let text = "";
  let lastToolStep = 0;
  /** Skill activations by a running tool wait for its entry, so a replay shows them in the order they streamed. */
  let pendingSkills: Array<{ name: string; location: string }> = [];
  let toolsInFlight = 0;
  const calls = new Map<string, ToolCallEvent>();
  const currentStep = () => lastToolStep + 1;
  // What streamed since the last checkpoint, and the timer that will write it.
  let newThought = "";
  let newText = "";
  let checkpointTimer: NodeJS.Timeout | null = null;

  const write = (entry: Omit<SessionEntry, "ts">) => {
    store.append(sessionId, { ts: new Date().toISOString(), ...entry } as SessionEntry).catch((err: Error) => {
      firstWriteError ??= err;
      onWriteError(err);
    });
  };
  const checkpoint = () => {
    checkpointTimer = null;
    if (newThought) write({ type: "streaming", channel: "thought", content: newThought, step: currentStep() });
    if (newText) write({ type: "streaming", channel: "text", content: newText, step: currentStep() });
    newThought = "";
    newText = "";
  };
  const scheduleCheckpoint = () => {
    if (checkpointTimer) return;
    checkpointTimer = setTimeout(checkpoint, CHECKPOINT_MS);
    checkpointTimer.unref();
  };
  const flushThought = () => {
    if (thought) write({ type: "thought", content: thought, step: currentStep() });
    thought = "";
    newThought = "";
  };
  const flushText = (partial = false) => {
    if (text) write({ type: "assistant", content: text, step: currentStep(), ...(partial ? { partial: true } : {}) });
    text = "";
    newText = "";
  };
  const stopCheckpoints = () => {
    if (checkpointTimer) clearTimeout(checkpointTimer);
    checkpointTimer = null;
  };

  return {
    /** The first session write that failed in this turn, if any. */
    get writeError(): Error | null {
      return firstWriteError;
    },
    /** Records the skills snapshot and the roles catalog a new session starts with. */
    snapshot(text: string, roles: string) {
      write({ type: "snapshot", content: text, roles });
    },
    /** Records a compaction made at the start of this turn (the summary the model is sent from now on). */
    compaction(entry: SessionEntry) {
      write(entry);
    },
    /** Records the user's message; the first entry of every turn. */
    user(message: string, modelContent?: string) {
      write({ type: "user", content: message, ...(modelContent !== undefined ? { model_content: modelContent } : {}) });
    },
    onEvent(event: ChatEvent) {
      switch (event.type) {
        case "session":
        case "usage":
        case "prefix":
        case "compaction": // written whole by compaction()
        case "delegate": // a sub-agent's trace is kept whole in its call's result
          return;
        case "thought":
          thought += event.content;
          newThought += event.content;
          scheduleCheckpoint();
          return;
        case "token":
          flushThought();
          text += event.content;
          newText += event.content;
          scheduleCheckpoint();
          return;
        case "tool_call":
          flushThought();
          flushText();
          calls.set(event.id, event);
          toolsInFlight++;
          lastToolStep = Math.max(lastToolStep, event.step);
          return;
        case "tool_result": {
          const call = calls.get(event.id);
          toolsInFlight = Math.max(0, toolsInFlight - 1);
          write({
            type: "tool",
            content: "",
            step: call?.step ?? currentStep(),
            tool: {
              id: event.id,
              name: event.name,
              input: call?.input ?? null,
              output: event.output,
              ok: event.ok,
              duration_ms: event.duration_ms,
              ...(event.details ? { details: event.details } : {}),
            },
          });
          for (const skill of pendingSkills) write({ type: "skill", content: skill.name, location: skill.location });
          pendingSkills = [];
          return;
        }
        case "skill":
          if (toolsInFlight > 0) pendingSkills.push({ name: event.name, location: event.location });
          else write({ type: "skill", content: event.name, location: event.location });
          return;
        case "final":
          stopCheckpoints();
          flushThought();
          text = "";
          newText = "";
          write({ type: "assistant", content: event.content, step: currentStep(), duration_ms: event.duration_ms });
          return;
        case "error":
          stopCheckpoints();
          flushThought();
          flushText(true);
          write({ type: "error", content: event.message, code: event.code });
          return;
        default: {
          const unhandled: never = event;
          throw new Error(`unhandled chat event ${JSON.stringify(unhandled)}`);
        }
      }
    },
  };
}
