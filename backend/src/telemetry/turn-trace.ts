import { type Attributes, context, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from "@opentelemetry/api";
import type { ChatEvent, NumberedEvent } from "@mini-openclaw/protocol";
import type { TurnSubscriber } from "../turns/live-turn.js";

/** What a trace says of the model, whatever the turn: its provider and where it is served. */
export interface ModelFacts {
  model: string;
  /** The request's `server.address` and `server.port` (never a URL's credentials or path). */
  server: { address: string; port: number } | null;
}

interface TraceOptions {
  tracer: Tracer;
  model: ModelFacts;
  sessionId: string;
  /** The user's message, for `gen_ai.input.messages` when contents are captured. */
  message: string;
  captureContent: boolean;
}

/** A message part as the GenAI conventions' JSON schema for input and output messages writes it. */
type MessagePart = { type: "text" | "reasoning"; content: string } | { type: "tool_call"; id?: string; name: string; arguments: string };

/**
 * Every start and end on one clock, to the microsecond: the SDK's own default starts a span at
 * Date.now() (whole milliseconds) and ends it on the performance clock, so a child could seem to
 * end after its parent.
 */
const now = () => performance.timeOrigin + performance.now();

/** One model request: its span, and what it wrote (kept only when contents are captured). */
interface StepSpan {
  span: Span;
  parts: MessagePart[];
  /** Tool-input blocks by block id, filled as the model writes them. */
  calls: Map<string, { id?: string; name: string; arguments: string }>;
}

/**
 * One agent's spans: its `invoke_agent` span, its current model request (`chat`), its tool calls
 * (`execute_tool`) and, under a `delegate` call, the sub-agent it started.
 */
class AgentSpans {
  private step: StepSpan | null = null;
  private readonly tools = new Map<string, Span>();
  private readonly subAgents = new Map<string, AgentSpans>();
  private ended = false;

  constructor(
    private readonly options: TraceOptions,
    readonly span: Span,
  ) {}

  private child(name: string, kind: SpanKind, attributes: Attributes): Span {
    return this.options.tracer.startSpan(name, { kind, attributes, startTime: now() }, trace.setSpan(context.active(), this.span));
  }

  private get capture(): boolean {
    return this.options.captureContent;
  }

  /** One event of this agent's stream (a sub-agent's come wrapped in `delegate` events). */
  event(event: ChatEvent): void {
    switch (event.type) {
      case "step_start":
        this.endStep();
        this.step = {
          span: this.child(`chat ${event.model}`, SpanKind.CLIENT, {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": "openai",
            "gen_ai.request.model": event.model,
            ...(this.options.model.server ? { "server.address": this.options.model.server.address, "server.port": this.options.model.server.port } : {}),
          }),
          parts: [],
          calls: new Map(),
        };
        break;
      case "thought":
      case "token":
        if (this.capture && this.step) appendText(this.step.parts, event.type === "thought" ? "reasoning" : "text", event.content);
        break;
      case "tool_input_start":
        if (this.capture && this.step) this.step.calls.set(event.block, { id: event.call_id, name: event.name, arguments: "" });
        break;
      case "tool_input_delta": {
        const call = this.step?.calls.get(event.block);
        if (call) call.arguments += event.content;
        break;
      }
      case "usage":
        this.step?.span.setAttributes({
          "gen_ai.usage.input_tokens": event.input_tokens,
          "gen_ai.usage.output_tokens": event.output_tokens,
          ...(event.cached_tokens ? { "gen_ai.usage.cache_read.input_tokens": event.cached_tokens } : {}),
        });
        break;
      case "step_end":
        if (!this.step) break;
        this.step.span.setAttributes({
          ...(event.finish_reason ? { "gen_ai.response.finish_reasons": [event.finish_reason] } : {}),
          ...(event.response_model ? { "gen_ai.response.model": event.response_model } : {}),
        });
        if (this.capture) {
          const parts: MessagePart[] = [...this.step.parts, ...[...this.step.calls.values()].map((call) => ({ type: "tool_call" as const, ...call }))];
          this.step.span.setAttribute("gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts, ...(event.finish_reason ? { finish_reason: event.finish_reason } : {}) }]));
        }
        this.endStep();
        break;
      case "tool_call": {
        const span = this.child(
          `execute_tool ${event.name}`,
          SpanKind.INTERNAL,
          {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": event.name,
            "gen_ai.tool.call.id": event.id,
            "gen_ai.tool.type": event.mcp ? "extension" : "function",
            ...(event.mcp ? { "mcp.method.name": "tools/call", "mini_openclaw.mcp.server": event.mcp.server } : {}),
            ...(this.capture ? { "gen_ai.tool.call.arguments": JSON.stringify(event.input) } : {}),
          },
        );
        this.tools.set(event.id, span);
        break;
      }
      case "approval_request":
        this.tools.get(event.call_id)?.addEvent(
          "approval_request",
          { "gen_ai.tool.name": event.tool, "mini_openclaw.approval.sandbox": event.sandbox, ...(this.capture ? { "mini_openclaw.approval.subject": event.subject } : {}) },
          now(),
        );
        break;
      case "approval":
        this.tools.get(event.call_id)?.addEvent(
          "approval",
          { "mini_openclaw.approval.decision": event.decision, "mini_openclaw.approval.by": event.by, ...(event.rule ? { "mini_openclaw.approval.rule": event.rule } : {}) },
          now(),
        );
        break;
      case "tool_result": {
        const span = this.tools.get(event.id);
        if (!span) break;
        this.tools.delete(event.id);
        this.subAgents.get(event.id)?.end();
        if (this.capture) span.setAttribute("gen_ai.tool.call.result", event.output);
        if (!event.ok) {
          span.setAttribute("error.type", "tool_error");
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end(now());
        break;
      }
      case "hook": {
        // A hook's run as its own span, under the call it acted on (or the turn), timed as it ran.
        const parent = (event.call_id ? this.tools.get(event.call_id) : undefined) ?? this.span;
        const span = this.options.tracer.startSpan(
          `hook ${event.event}`,
          {
            kind: SpanKind.INTERNAL,
            startTime: event.started_at,
            attributes: {
              "mini_openclaw.hook.event": event.event,
              "mini_openclaw.hook.source": event.source,
              "mini_openclaw.hook.status": event.status,
              ...(event.decision ? { "mini_openclaw.hook.decision": event.decision } : {}),
              ...(event.exit_code !== null ? { "process.exit.code": event.exit_code } : {}),
              ...(this.capture ? { "mini_openclaw.hook.command": event.command } : {}),
            },
          },
          trace.setSpan(context.active(), parent),
        );
        if (event.status === "failed") span.setStatus({ code: SpanStatusCode.ERROR, ...(event.error ? { message: event.error } : {}) });
        span.end(event.started_at + event.duration_ms);
        break;
      }
      case "delegate": {
        let sub = this.subAgents.get(event.call_id);
        if (!sub) {
          const parent = this.tools.get(event.call_id) ?? this.span;
          const span = this.options.tracer.startSpan(
            `invoke_agent ${event.agent}`,
            { kind: SpanKind.INTERNAL, startTime: now(), attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": event.agent, "gen_ai.provider.name": "openai", "gen_ai.request.model": this.options.model.model } },
            trace.setSpan(context.active(), parent),
          );
          sub = new AgentSpans(this.options, span);
          this.subAgents.set(event.call_id, sub);
        }
        sub.event(event.event);
        break;
      }
      case "final":
        if (this.capture) this.span.setAttribute("gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: event.content }], finish_reason: event.finish_reason ?? "stop" }]));
        this.end();
        break;
      case "error":
        this.span.setAttribute("error.type", event.code);
        this.span.setStatus({ code: SpanStatusCode.ERROR, message: event.message });
        this.end();
        break;
      default:
        break;
    }
  }

  private endStep(): void {
    this.step?.span.end(now());
    this.step = null;
  }

  /** Ends whatever is still open (a failed step, a call cut short), then this agent's span. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.step) this.step.span.setStatus({ code: SpanStatusCode.ERROR });
    this.endStep();
    for (const sub of this.subAgents.values()) sub.end();
    for (const span of this.tools.values()) span.end(now());
    this.tools.clear();
    this.span.end(now());
  }
}

/** Consecutive deltas of one kind make one part. */
function appendText(parts: MessagePart[], type: "text" | "reasoning", content: string): void {
  const last = parts.at(-1);
  if (last && last.type === type) last.content += content;
  else parts.push({ type, content });
}

/**
 * A turn as a trace following OpenTelemetry's GenAI conventions, built from its event stream as a
 * subscriber: `invoke_agent` for the turn, `chat {model}` per model request, `execute_tool {name}` per
 * call, a sub-agent's `invoke_agent` under the `delegate` call that started it, approvals as span events.
 */
export function traceTurn(options: TraceOptions): TurnSubscriber {
  const root = options.tracer.startSpan("invoke_agent main", {
    kind: SpanKind.INTERNAL,
    startTime: now(),
    attributes: {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "main",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": options.model.model,
      "gen_ai.conversation.id": options.sessionId,
      ...(options.captureContent ? { "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: options.message }] }]) } : {}),
    },
  });
  const agent = new AgentSpans(options, root);
  return {
    event({ event }: NumberedEvent) {
      if (event.type === "session") {
        root.setAttribute("gen_ai.conversation.id", event.session_id);
        if (event.turn) root.setAttribute("mini_openclaw.turn", event.turn);
      } else agent.event(event);
    },
    end: () => agent.end(),
  };
}
