/**
 * Keeps the wire types and their schemas together: the types are inferred from the schemas, the one
 * recursive type (`DelegateEvent`) is spelled out and checked here against what its schema parses,
 * and the stored entries must hold exactly the events the stream sends, less `session`.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import {
  type ChatEvent,
  type ChatEventType,
  chatEventSchema,
  type DelegateEvent,
  delegateEventSchema,
  type QueueItem,
  queueItemSchema,
  type UiEvent,
  uiEventSchema,
} from "./chat-events.js";
import { type EventEntry, type SessionEntry, sessionEntrySchema, type StoredEvent } from "./session-entries.js";
import { parseChatFrame } from "./sse-reader.js";

describe("types follow the schemas", () => {
  it("every schema parses to its type, and the union holds every event type", () => {
    expectTypeOf<z.infer<typeof chatEventSchema>>().toEqualTypeOf<ChatEvent>();
    expectTypeOf<z.infer<typeof delegateEventSchema>>().toEqualTypeOf<DelegateEvent>();
    expectTypeOf<z.infer<typeof sessionEntrySchema>>().toEqualTypeOf<SessionEntry>();
    expectTypeOf<z.infer<typeof uiEventSchema>>().toEqualTypeOf<UiEvent>();
    expectTypeOf<z.infer<typeof queueItemSchema>>().toEqualTypeOf<QueueItem>();
    expectTypeOf<EventEntry["event"]>().toEqualTypeOf<StoredEvent>();
    expectTypeOf<StoredEvent["type"]>().toEqualTypeOf<Exclude<ChatEventType, "session">>();
    expectTypeOf<ChatEventType>().toEqualTypeOf<
      | "session"
      | "approval_request"
      | "approval"
      | "thought_start"
      | "thought"
      | "thought_end"
      | "text_start"
      | "token"
      | "text_end"
      | "tool_input_start"
      | "tool_input_delta"
      | "tool_input_end"
      | "late_thought"
      | "step_start"
      | "model_switch"
      | "step_end"
      | "tool_call"
      | "tool_result"
      | "changes"
      | "skill"
      | "prefix"
      | "compaction"
      | "usage"
      | "steer"
      | "hook"
      | "final"
      | "error"
      | "delegate"
    >();
  });
});

describe("the schemas at run time", () => {
  const samples: ChatEvent[] = [
    { type: "session", session_id: "s1", created: true, turn: 1 },
    { type: "token", content: "hi" },
    { type: "tool_call", id: "c1", name: "terminal", input: { command: "ls" }, step: 1, started_at: 1 },
    { type: "tool_result", id: "c1", name: "terminal", output: "a", ok: true, duration_ms: 3 },
    { type: "steer", id: "q1", content: "look at b instead" },
    { type: "delegate", call_id: "c2", agent: "researcher", depth: 1, event: { type: "delegate", call_id: "c3", agent: "analyst", depth: 2, event: { type: "token", content: "x" } } },
    { type: "final", content: "done", duration_ms: 10 },
    { type: "error", code: "aborted", message: "The turn was stopped." },
  ];

  it("every sample event round-trips through JSON and the schema unchanged", () => {
    for (const event of samples) expect(chatEventSchema.parse(JSON.parse(JSON.stringify(event)))).toEqual(event);
  });

  it("refuses unknown types, wrong fields, and a session event stored in a file", () => {
    expect(chatEventSchema.safeParse({ type: "nope" }).success).toBe(false);
    expect(chatEventSchema.safeParse({ type: "error", code: "not-a-code", message: "x" }).success).toBe(false);
    expect(chatEventSchema.safeParse({ type: "delegate", call_id: "c", agent: "a", depth: 1, event: { type: "token" } }).success).toBe(false);
    expect(sessionEntrySchema.safeParse({ type: "event", ts: "t", event: { type: "session", session_id: "s", created: true } }).success).toBe(false);
    expect(sessionEntrySchema.safeParse({ type: "event", ts: "t", id: 7, turn: 2, event: { type: "token", content: "a" } }).success).toBe(true);
    expect(sessionEntrySchema.safeParse({ type: "user", ts: "t", turn: 0, content: "a" }).success).toBe(false);
  });

  it("reads a frame's id and event; a heartbeat is no frame; data that is no event throws", () => {
    expect(parseChatFrame('id: 42\ndata: {"type":"token","content":"a"}')).toEqual({ id: 42, event: { type: "token", content: "a" } });
    expect(parseChatFrame(": ping")).toBeNull();
    expect(() => parseChatFrame('id: 1\ndata: {"type":"bogus"}')).toThrow();
  });
});
