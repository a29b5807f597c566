/**
 * Turns as OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT): a local OTLP/HTTP receiver reads them
 * as a collector would, in OTLP/JSON and in protobuf, and checks the GenAI conventions' span tree.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ApprovalRequestEvent, ChatEvent, HealthReply } from "@mini-openclaw/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../test-support/otlp-receiver.js";
import { type ChatRequestBody, messageText, systemPromptOf } from "../test-support/scripted-model-server.js";
import { chat, postJson, sseEvents, startWorkbench, type Workbench } from "../test-support/workbench-harness.js";

let wb: Workbench | undefined;
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await wb?.close();
  await receiver?.close();
  wb = undefined;
  receiver = undefined;
});

const toolResults = (body: ChatRequestBody) => body.messages.filter((m) => m.role === "tool").map((m) => messageText(m.content));
const isAnalyst = (body: ChatRequestBody) => systemPromptOf(body).includes('"analyst" sub-agent');

/**
 * The main agent reads two files at once, then delegates to the analyst (who reads a file itself),
 * then answers; the sub-agent answers after its read.
 */
function script(body: ChatRequestBody) {
  const results = toolResults(body);
  if (isAnalyst(body)) return results.length === 0 ? { toolCalls: [{ id: "call_sub_read", name: "read_file", args: { path: "memory/MEMORY.md" } }] } : { content: "The analyst says 42." };
  if (results.length === 0) {
    return {
      toolCalls: [
        { id: "call_soul", name: "read_file", args: { path: "workspace/SOUL.md" } },
        { id: "call_user", name: "read_file", args: { path: "workspace/USER.md" } },
      ],
    };
  }
  if (results.length === 2) return { toolCalls: [{ id: "call_delegate", name: "delegate", args: { agent: "analyst", task: "What is six times seven? SECRET-TASK-TEXT" } }] };
  return { content: "All done: FINAL-ANSWER-TEXT." };
}

/** Runs the scripted turn, approving the delegation when it asks. */
async function runTurn(wb: Workbench): Promise<ChatEvent[]> {
  const response = await postJson(`${wb.url}/api/chat`, { message: "Look around, then ask the analyst. USER-MESSAGE-TEXT", stream: true });
  const events: ChatEvent[] = [];
  for await (const event of sseEvents(response)) {
    events.push(event);
    if (event.type === "approval_request") {
      const decided = await postJson(`${wb.url}/api/approvals/${(event as ApprovalRequestEvent).id}`, { decision: "approve" }, { headers: { origin: wb.url } });
      expect(decided.status).toBe(200);
    }
  }
  return events;
}

async function spansOfOneTrace(receiver: OtlpReceiver, count: number): Promise<ReceivedSpan[]> {
  for (let i = 0; i < 100 && receiver.spans.length < count; i++) await new Promise((r) => setTimeout(r, 100));
  return receiver.spans;
}

async function tracedWorkbench(protocol: "http/json" | "http/protobuf", extra: Record<string, string> = {}) {
  receiver = await startOtlpReceiver();
  wb = await startWorkbench({
    script,
    env: {
      APPROVALS: "on",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20collector-token",
      ...extra,
    },
  });
  await writeFile(join(wb.dataRoot, "APPROVALS.json"), JSON.stringify({ version: 1, timeout_seconds: 600, tools: { terminal: { mode: "off" }, python_repl: { mode: "off" }, fetch_url: { mode: "off" }, delegate: { mode: "ask", allow: [], deny: [] } } }));
  return { wb, receiver };
}

const byName = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name);

describe("traces", () => {
  for (const protocol of ["http/json", "http/protobuf"] as const) {
    it(`a turn with two tool calls and a delegation is one trace of GenAI spans (${protocol})`, async () => {
      const { wb, receiver } = await tracedWorkbench(protocol);
      const events = await runTurn(wb);
      expect(events.at(-1)).toMatchObject({ type: "final", content: "All done: FINAL-ANSWER-TEXT." });
      // invoke_agent main, 3 chat, 3 execute_tool; invoke_agent analyst, 2 chat, 1 execute_tool.
      const spans = await spansOfOneTrace(receiver, 11);
      expect(spans).toHaveLength(11);
      expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
      expect(receiver.contentTypes.every((t) => t.startsWith(protocol === "http/json" ? "application/json" : "application/x-protobuf"))).toBe(true);
      expect(receiver.headers[0].authorization).toBe("Bearer collector-token");
      expect(spans[0].resource["service.name"]).toBe("mini-openclaw");

      const [root] = byName(spans, "invoke_agent main");
      expect(root.parentSpanId).toBe("");
      expect(root.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "main", "gen_ai.request.model": "scripted", "gen_ai.conversation.id": events[0].type === "session" ? events[0].session_id : "" });

      const mainChats = byName(spans, "chat scripted").filter((s) => s.parentSpanId === root.spanId);
      expect(mainChats).toHaveLength(3);
      for (const span of mainChats) {
        expect(span.kind).toBe(3); // client
        expect(span.attributes).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.request.model": "scripted", "server.address": "127.0.0.1" });
        expect(span.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
        expect(span.attributes["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
      }
      expect(mainChats.map((s) => s.attributes["gen_ai.response.finish_reasons"])).toEqual([["tool_calls"], ["tool_calls"], ["stop"]]);

      const tools = spans.filter((s) => s.name.startsWith("execute_tool") && s.parentSpanId === root.spanId);
      expect(tools.map((s) => [s.name, s.attributes["gen_ai.tool.name"], s.attributes["gen_ai.tool.call.id"]]).sort()).toEqual([
        ["execute_tool delegate", "delegate", "call_delegate"],
        ["execute_tool read_file", "read_file", "call_soul"],
        ["execute_tool read_file", "read_file", "call_user"],
      ]);
      const delegate = tools.find((s) => s.attributes["gen_ai.tool.call.id"] === "call_delegate")!;
      // The approval the call waited for, as span events.
      expect(delegate.events.map((e) => e.name)).toEqual(["approval_request", "approval"]);
      expect(delegate.events[1].attributes).toMatchObject({ "mini_openclaw.approval.decision": "approved", "mini_openclaw.approval.by": "user" });

      // The sub-agent under the call that started it, its own steps and call under it.
      const [analyst] = byName(spans, "invoke_agent analyst");
      expect(analyst.parentSpanId).toBe(delegate.spanId);
      expect(analyst.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "analyst" });
      expect(spans.filter((s) => s.parentSpanId === analyst.spanId).map((s) => s.name).sort()).toEqual(["chat scripted", "chat scripted", "execute_tool read_file"]);
      // Every span ended inside its parent.
      const byId = new Map(spans.map((s) => [s.spanId, s]));
      for (const span of spans) {
        const parent = byId.get(span.parentSpanId);
        if (!parent) continue;
        expect(span.startNs >= parent.startNs && span.endNs <= parent.endNs, `${span.name} ${span.startNs}-${span.endNs} in ${parent.name} ${parent.startNs}-${parent.endNs}`).toBe(true);
      }

      // Contents are left out unless asked for; the key never goes anywhere.
      const everything = JSON.stringify(spans, (_k, v) => (typeof v === "bigint" ? String(v) : v));
      for (const secret of ["USER-MESSAGE-TEXT", "SECRET-TASK-TEXT", "FINAL-ANSWER-TEXT", "The analyst says", "test-key", "gen_ai.input.messages", "gen_ai.tool.call.arguments"]) {
        expect(everything).not.toContain(secret);
      }
      const health = (await (await fetch(`${wb.url}/api/health`)).json()) as HealthReply;
      expect(health.tracing).toEqual({ enabled: true, exported_spans: 11, dropped_spans: 0 });
    });
  }

  it("message contents, tool arguments and results are in the spans when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true", async () => {
    const { wb, receiver } = await tracedWorkbench("http/json", { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true" });
    await runTurn(wb);
    const spans = await spansOfOneTrace(receiver, 11);
    const [root] = byName(spans, "invoke_agent main");
    expect(JSON.parse(root.attributes["gen_ai.input.messages"] as string)).toEqual([{ role: "user", parts: [{ type: "text", content: "Look around, then ask the analyst. USER-MESSAGE-TEXT" }] }]);
    expect(JSON.parse(root.attributes["gen_ai.output.messages"] as string)).toEqual([{ role: "assistant", parts: [{ type: "text", content: "All done: FINAL-ANSWER-TEXT." }], finish_reason: "stop" }]);
    const delegate = spans.find((s) => s.attributes["gen_ai.tool.call.id"] === "call_delegate")!;
    expect(JSON.parse(delegate.attributes["gen_ai.tool.call.arguments"] as string)).toEqual({ agent: "analyst", task: "What is six times seven? SECRET-TASK-TEXT" });
    expect(delegate.attributes["gen_ai.tool.call.result"]).toContain("The analyst says 42.");
    const lastChat = byName(spans, "chat scripted").find((s) => String(s.attributes["gen_ai.output.messages"] ?? "").includes("FINAL-ANSWER-TEXT"));
    expect(lastChat).toBeDefined();
    expect(JSON.stringify(spans, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain("test-key");
  });

  it("a collector that never answers holds no turn up, and what it could not take is counted as dropped", async () => {
    receiver = await startOtlpReceiver({ hang: true });
    wb = await startWorkbench({
      script: (body) => (toolResults(body).length === 0 ? { toolCalls: [{ name: "read_file", args: { path: "workspace/SOUL.md" } }] } : { content: "done" }),
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_TIMEOUT: "4000" },
    });
    expect((await chat(wb, "go")).at(-1)).toMatchObject({ type: "final", content: "done" });
    // The first turn's spans go out a second after they end, and the collector keeps the request.
    for (let i = 0; i < 50 && receiver.waiting() === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(receiver.waiting()).toBe(1);
    // Turns go on meanwhile: each ends while that export is still unanswered (a turn that waited
    // for it would end after the exporter gave up, 4 s in, and close its connection).
    for (let i = 0; i < 3; i++) {
      expect((await chat(wb, `again ${i}`)).at(-1)).toMatchObject({ type: "final", content: "done" });
      expect(receiver.waiting()).toBe(1);
    }
    let health: HealthReply | undefined;
    for (let i = 0; i < 100; i++) {
      health = (await (await fetch(`${wb.url}/api/health`)).json()) as HealthReply;
      if (health.tracing.dropped_spans > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // The export timed out: its four spans (the turn, two model requests, one call) are counted as dropped.
    expect(health!.tracing).toMatchObject({ enabled: true, exported_spans: 0 });
    expect(health!.tracing.dropped_spans).toBeGreaterThanOrEqual(4);
  });

  it("unset: nothing is loaded or sent, and health says tracing is off", async () => {
    wb = await startWorkbench({ script: [{ content: "hi" }] });
    await chat(wb, "hello");
    const health = (await (await fetch(`${wb.url}/api/health`)).json()) as HealthReply;
    expect(health.tracing).toEqual({ enabled: false, exported_spans: 0, dropped_spans: 0 });
  });
});
