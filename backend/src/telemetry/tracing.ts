import type { TelemetryConfig } from "../config/telemetry-config.js";
import type { LiveTurn } from "../turns/live-turn.js";
import type { ModelFacts } from "./turn-trace.js";
import { endpointOf } from "../config/default-endpoint.js";

/** The traces' counts, as `/api/health` shows them. */
export interface TracingStatus {
  enabled: boolean;
  exported_spans: number;
  dropped_spans: number;
}

export interface Tracing {
  /** Follows a turn's events into a trace. */
  follow(live: LiveTurn, turn: { sessionId: string; message: string; model: ModelFacts }): void;
  status(): TracingStatus;
  /** Sends what is queued (for a short while at most), then stops. */
  shutdown(): Promise<void>;
}

/** How long shutdown waits for a last export (a collector that never answers must not hold the server up). */
const SHUTDOWN_WAIT_MS = 2_000;

export const NO_TRACING: TracingStatus = { enabled: false, exported_spans: 0, dropped_spans: 0 };

/**
 * Turns exported as OTLP traces to the configured collector, or null when none is configured: then
 * no OpenTelemetry module is even loaded.
 */
export async function startTracing(config: TelemetryConfig | null): Promise<Tracing | null> {
  if (!config) return null;
  const [{ TracerProvider }, { resourceFromAttributes }, { SpanQueue }, { traceTurn }, exporterModule] = await Promise.all([
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/resources"),
    import("./span-queue.js"),
    import("./turn-trace.js"),
    config.protocol === "http/json" ? import("@opentelemetry/exporter-trace-otlp-http") : import("@opentelemetry/exporter-trace-otlp-proto"),
  ]);
  const exporter = new exporterModule.OTLPTraceExporter({ url: config.tracesUrl, headers: config.headers, timeoutMillis: config.timeoutMs });
  const queue = new SpanQueue(exporter);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": config.serviceName }),
    spanProcessors: [queue],
    // A tool's whole output can be a span attribute when contents are captured: bounded like the model's copy.
    spanLimits: { attributeValueLengthLimit: 100_000 },
  });
  const tracer = provider.getTracer("mini-openclaw");
  return {
    follow(live, turn) {
      live.subscribe(traceTurn({ tracer, model: turn.model, sessionId: turn.sessionId, message: turn.message, captureContent: config.captureContent }));
    },
    status: () => ({ enabled: true, exported_spans: queue.exported, dropped_spans: queue.dropped }),
    async shutdown() {
      await Promise.race([provider.shutdown(), new Promise((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref())]);
    },
  };
}

/** The model's facts a trace names: its server's host and port, never the URL's credentials or path. */
export function modelFacts(model: { model: string; baseUrl: string | null }): ModelFacts {
  let server: ModelFacts["server"];
  try {
    const url = new URL(endpointOf(model.baseUrl));
    server = { address: url.hostname, port: Number(url.port) || (url.protocol === "https:" ? 443 : 80) };
  } catch {
    server = null;
  }
  return { model: model.model, server };
}
