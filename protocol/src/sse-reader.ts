import type { z } from "zod";
import { type ChatEvent, chatEventSchema, type UiEvent, uiEventSchema } from "./chat-events.js";

/** One SSE frame of a chat stream: its `id:` line (null when it had none) and its event. */
export interface ChatFrame {
  id: number | null;
  event: ChatEvent;
}

/**
 * Reads `id: N` / `data: {json}` frames from a fetch response body as they arrive (EventSource
 * cannot POST). Comment lines (heartbeats) are skipped; a frame whose data is not a chat event
 * (by the shared schema) is an error: the stream is not what it claims to be.
 */
export async function* readChatFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<ChatFrame> {
  for await (const frame of readFrames(body)) {
    const parsed = parseChatFrame(frame);
    if (parsed) yield parsed;
  }
}

/** The events alone, for readers that do not resume. */
export async function* readChatEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ChatEvent> {
  for await (const frame of readChatFrames(body)) yield frame.event;
}

/** The UI's own stream (`GET /api/events`), read the same way (the browser reads it with EventSource). */
export async function* readUiEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<UiEvent> {
  for await (const frame of readFrames(body)) {
    const parsed = parseFrame(frame, uiEventSchema);
    if (parsed) yield parsed.event;
  }
}

/** The raw frames of an event stream, without their blank line. */
async function* readFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let boundary: number;
    while ((boundary = buffer.indexOf("\n\n")) >= 0) {
      yield buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
    }
  }
}

/** One frame's text (without its blank line) as a numbered chat event; null for a comment-only frame. */
export function parseChatFrame(frame: string): ChatFrame | null {
  return parseFrame(frame, chatEventSchema);
}

function parseFrame<T>(frame: string, schema: z.ZodType<T>): { id: number | null; event: T } | null {
  let id: number | null = null;
  const data: string[] = [];
  for (const line of frame.split("\n")) {
    if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
    else if (line.startsWith("id:")) id = Number(line.slice(3).trim());
  }
  if (data.length === 0) return null;
  return { id: Number.isSafeInteger(id) ? id : null, event: schema.parse(JSON.parse(data.join("\n"))) };
}
