import type { ChatModelStreamEvent } from "@langchain/core/language_models/event";
import type { BaseMessage, UsageMetadata } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import type { ChatOpenAI } from "@langchain/openai";
import type { BlockWriter } from "./block-writer.js";
import { ThinkTagSplitter } from "./think-tags.js";

/** A tool call as the model wrote it: parsed arguments, and the raw text they were parsed from. */
export interface StepToolCall extends ToolCall {
  /** The arguments exactly as streamed. */
  rawArgs: string | null;
  /** The arguments were not valid JSON. */
  malformed: boolean;
}

/** What one model request produced, whole. */
export interface ModelStep {
  /** The answer text, reasoning taken out. */
  text: string;
  /** The step's reasoning, whichever way it came. */
  reasoning: string;
  toolCalls: StepToolCall[];
  usage?: Partial<UsageMetadata>;
  /** Why the model stopped, as the server said: "stop", "tool_calls", "length" (the token limit)... */
  finishReason: string | null;
  /** The model that answered, as the server named it. */
  responseModel: string | null;
}

/** A streaming loop that never yields would hold every other socket (the client's included) until the model is done. */
const YIELD_EVERY_MS = 8;

/**
 * Says when the loop has worked `YIELD_EVERY_MS` without the event loop coming round (a flooding
 * model's chunks are parsed back to back in promise jobs). Time spent waiting for the network lets
 * the loop come round, so the first chunk after a wait goes on at once.
 */
function busyClock() {
  let since = performance.now();
  let cameRound = false;
  const watch = () => {
    cameRound = false;
    setImmediate(() => (cameRound = true));
  };
  watch();
  return {
    due(): boolean {
      if (cameRound) {
        since = performance.now();
        watch();
      }
      return performance.now() - since > YIELD_EVERY_MS;
    },
    async yield(): Promise<void> {
      await new Promise((resolve) => setImmediate(resolve));
      since = performance.now();
      watch();
    },
  };
}

interface ToolBlock {
  id?: string;
  name?: string;
  args: string;
  /** Its place among the step's calls, as the server numbered them. */
  index: number;
}

/** The step's calls, in the order the model wrote them, with their raw arguments; ones that are not JSON marked. */
function toolCallsOf(blocks: ToolBlock[]): StepToolCall[] {
  return blocks.map((block) => {
    const raw = block.args;
    let args: Record<string, unknown> = {};
    let malformed = false;
    try {
      const parsed: unknown = JSON.parse(raw === "" ? "{}" : raw);
      if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
      else malformed = true;
    } catch {
      malformed = true;
    }
    return { id: block.id ?? "", name: block.name ?? "unknown", args, type: "tool_call" as const, rawArgs: raw, malformed };
  });
}

/**
 * One model request of a turn, through ChatOpenAI's public `streamEvents()` (LangChain's
 * content-block stream: each chunk parsed once, by the OpenAI client, then turned into block events):
 * its reasoning and text stream as blocks (block-writer.ts) as they arrive, and the whole step is
 * returned. `onChunk` hears every event, content or not (the idle watchdog).
 */
export async function streamModelStep(
  model: ChatOpenAI,
  messages: BaseMessage[],
  {
    signal,
    blocks,
    onChunk,
    thinkTags = true,
  }: {
    signal: AbortSignal;
    blocks: BlockWriter;
    onChunk: (event: ChatModelStreamEvent) => void;
    /** Reasoning between `<think>` tags in the content is a thought (the profile's `compat.think_tags`); false: the content is the answer as written. */
    thinkTags?: boolean;
  },
): Promise<ModelStep> {
  let text = "";
  let reasoning = "";
  let finishReason: string | null = null;
  let responseModel: string | null = null;
  let usage: Partial<UsageMetadata> | undefined;
  const tools = new Map<number, ToolBlock>();
  const busy = busyClock();
  const tags = thinkTags ? new ThinkTagSplitter() : null;
  const show = (split: { thought: string; text: string; lateThought?: number }) => {
    if (split.lateThought) {
      // Text already streamed was reasoning (think-tags.ts): its block becomes a thought.
      reasoning += text.slice(text.length - split.lateThought);
      text = text.slice(0, text.length - split.lateThought);
      blocks.lateThought(split.lateThought);
    }
    if (split.thought) {
      reasoning += split.thought;
      blocks.thought(split.thought);
    }
    if (split.text) {
      text += split.text;
      blocks.text(split.text);
    }
  };
  try {
    for await (const event of model.streamEvents(messages, { signal })) {
      onChunk(event);
      switch (event.event) {
        case "content-block-start":
          if (event.content.type === "tool_call_chunk") {
            const chunk = event.content as { id?: string; name?: string; index?: number };
            tools.set(event.index, { id: chunk.id, name: chunk.name, args: "", index: chunk.index ?? tools.size });
            blocks.toolInputStart(event.index, chunk.name ?? "unknown", chunk.id ?? undefined);
          }
          break;
        case "content-block-delta": {
          const delta = event.delta;
          if (delta.type === "reasoning-delta") show({ thought: delta.reasoning, text: "" });
          else if (delta.type === "text-delta") show(tags ? tags.push(delta.text) : { thought: "", text: delta.text });
          else if (delta.type === "tool-call-delta") {
            const tool = tools.get(event.index);
            if (tool) tool.args += delta.args;
            blocks.toolInputDelta(event.index, delta.args);
          }
          break;
        }
        case "content-block-finish":
          if (event.content.type === "tool_call" || event.content.type === "invalid_tool_call") {
            const done = event.content as { id?: string; name?: string };
            const tool = tools.get(event.index);
            if (tool) Object.assign(tool, { id: tool.id ?? done.id, name: tool.name ?? done.name });
          }
          break;
        case "usage":
          usage = event.usage;
          break;
        case "message-finish":
          finishReason = typeof event.responseMetadata?.finish_reason === "string" ? event.responseMetadata.finish_reason : (event.reason ?? null);
          if (event.usage) usage = event.usage;
          if (typeof event.responseMetadata?.model_name === "string") responseModel = event.responseMetadata.model_name;
          break;
        case "error":
          throw new Error(event.message);
        default:
          break;
      }
      if (busy.due()) await busy.yield();
    }
    signal.throwIfAborted();
    if (tags) show(tags.end());
  } finally {
    // What was streamed before an abort or an error is part of the answer the turn keeps.
    blocks.end();
  }
  const calls = [...tools.values()].sort((a, b) => a.index - b.index);
  return { text, reasoning, toolCalls: toolCallsOf(calls), usage, finishReason, responseModel };
}
