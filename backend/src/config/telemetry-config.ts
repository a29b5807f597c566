/**
 * Where the workbench sends its traces, read from the standard OpenTelemetry variables
 * (https://opentelemetry.io/docs/specs/otel/protocol/exporter/): nothing set, nothing sent.
 */
export interface TelemetryConfig {
  /** The full URL spans are POSTed to (`.../v1/traces`). */
  tracesUrl: string;
  protocol: "http/json" | "http/protobuf";
  /** Sent with every export (a collector's credentials: never logged or shown). */
  headers: Record<string, string>;
  serviceName: string;
  /** How long one export may take before its spans count as dropped. */
  timeoutMs: number;
  /** `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`: messages, tool arguments and results go into spans. */
  captureContent: boolean;
}

export const DEFAULT_SERVICE_NAME = "mini-openclaw";

const isTrue = (value: string | undefined) => /^true$/i.test(value?.trim() ?? "");

/** `key1=value1,key2=value2`, each part URL-encoded (the W3C Baggage format the specification names). */
function parseHeaders(value: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const part of (value ?? "").split(",")) {
    const at = part.indexOf("=");
    if (at <= 0) continue;
    headers[decodeURIComponent(part.slice(0, at).trim())] = decodeURIComponent(part.slice(at + 1).trim());
  }
  return headers;
}

/** The signal's own endpoint is used as it is; the general one gets `v1/traces` added to its path. */
function tracesUrl(get: (name: string) => string | undefined): string | null {
  const own = get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")?.trim();
  if (own) return new URL(own).href;
  const base = get("OTEL_EXPORTER_OTLP_ENDPOINT")?.trim();
  if (!base) return null;
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/v1/traces`;
  return url.href;
}

/** The tracing settings, or null when no endpoint is set (or `OTEL_SDK_DISABLED=true`, or `OTEL_TRACES_EXPORTER=none`). */
export function readTelemetryConfig(get: (name: string) => string | undefined): TelemetryConfig | null {
  if (isTrue(get("OTEL_SDK_DISABLED")) || get("OTEL_TRACES_EXPORTER")?.trim() === "none") return null;
  let url: string | null;
  try {
    url = tracesUrl(get);
  } catch {
    throw new Error(`OTEL_EXPORTER_OTLP_ENDPOINT is not a URL`);
  }
  if (!url) return null;
  const protocol = (get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") ?? get("OTEL_EXPORTER_OTLP_PROTOCOL") ?? "http/protobuf").trim();
  if (protocol !== "http/json" && protocol !== "http/protobuf") {
    throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL "${protocol}" is not supported: use http/protobuf or http/json`);
  }
  const timeout = Number(get("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT") ?? get("OTEL_EXPORTER_OTLP_TIMEOUT") ?? 10_000);
  return {
    tracesUrl: url,
    protocol,
    headers: { ...parseHeaders(get("OTEL_EXPORTER_OTLP_HEADERS")), ...parseHeaders(get("OTEL_EXPORTER_OTLP_TRACES_HEADERS")) },
    serviceName: get("OTEL_SERVICE_NAME")?.trim() || DEFAULT_SERVICE_NAME,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 10_000,
    captureContent: isTrue(get("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT")),
  };
}
