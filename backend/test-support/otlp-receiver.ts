/**
 * A local OTLP/HTTP trace receiver, as a collector (Jaeger, Phoenix, the OpenTelemetry Collector)
 * takes traces: `POST /v1/traces` with an `ExportTraceServiceRequest` as OTLP/JSON
 * (`application/json`) or as binary protobuf (`application/x-protobuf`). The protobuf is decoded here
 * from the published message definitions (opentelemetry-proto: trace/v1/trace.proto,
 * common/v1/common.proto), field by field, so the test reads what any collector would.
 * `hang`: requests are read and never answered (a collector that is down behind an open port).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** "" for a root span. */
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
  /** 0 unset, 1 ok, 2 error. */
  status: number;
  /** The resource's attributes (`service.name`...). */
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** The content types of the requests received, in order. */
  contentTypes: string[];
  /** Every request's headers (to check what the exporter sends). */
  headers: IncomingMessage["headers"][];
  /** `hang`: exports received and still waiting for an answer (their connection open). */
  waiting(): number;
  close(): Promise<void>;
}

// --- protobuf wire format (https://protobuf.dev/programming-guides/encoding/) ---

interface Field {
  no: number;
  wire: number;
  /** Varint and fixed64 values. */
  int?: bigint;
  bytes?: Uint8Array;
}

function readFields(buf: Uint8Array): Field[] {
  const fields: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buf[at++];
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (at < buf.length) {
    const key = Number(varint());
    const no = key >>> 3;
    const wire = key & 7;
    if (wire === 0) fields.push({ no, wire, int: varint() });
    else if (wire === 1) {
      fields.push({ no, wire, int: new DataView(buf.buffer, buf.byteOffset + at, 8).getBigUint64(0, true), bytes: buf.subarray(at, at + 8) });
      at += 8;
    } else if (wire === 2) {
      const length = Number(varint());
      fields.push({ no, wire, bytes: buf.subarray(at, at + length) });
      at += length;
    } else if (wire === 5) {
      fields.push({ no, wire, int: BigInt(new DataView(buf.buffer, buf.byteOffset + at, 4).getUint32(0, true)) });
      at += 4;
    } else throw new Error(`unsupported wire type ${wire}`);
  }
  return fields;
}

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes ?? new Uint8Array());
const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? new Uint8Array()).toString("hex");
const sub = (fields: Field[], no: number) => fields.filter((f) => f.no === no).map((f) => readFields(f.bytes!));
const one = (fields: Field[], no: number) => fields.find((f) => f.no === no);

/** AnyValue: 1 string, 2 bool, 3 int64, 4 double, 5 array (ArrayValue: 1 values). */
function anyValue(fields: Field[]): unknown {
  for (const f of fields) {
    if (f.no === 1) return text(f.bytes);
    if (f.no === 2) return f.int === 1n;
    if (f.no === 3) return Number(BigInt.asIntN(64, f.int!));
    if (f.no === 4) return new DataView(f.bytes!.buffer, f.bytes!.byteOffset, 8).getFloat64(0, true);
    if (f.no === 5) return sub(readFields(f.bytes!), 1).map(anyValue);
  }
  return undefined;
}

/** KeyValue: 1 key, 2 value. */
function keyValues(list: Field[][]): Record<string, unknown> {
  return Object.fromEntries(list.map((kv) => [text(one(kv, 1)?.bytes), anyValue(sub(kv, 2)[0] ?? [])]));
}

/** ExportTraceServiceRequest: 1 resource_spans; ResourceSpans: 1 resource (1 attributes), 2 scope_spans; ScopeSpans: 2 spans. */
function decodeProtobuf(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of sub(readFields(body), 1)) {
    const resource = keyValues(sub(sub(resourceSpans, 1)[0] ?? [], 1));
    for (const scopeSpans of sub(resourceSpans, 2)) {
      // Span: 1 trace_id, 2 span_id, 4 parent_span_id, 5 name, 6 kind, 7 start, 8 end, 9 attributes, 11 events, 15 status (3 code).
      for (const span of sub(scopeSpans, 2)) {
        spans.push({
          traceId: hex(one(span, 1)?.bytes),
          spanId: hex(one(span, 2)?.bytes),
          parentSpanId: hex(one(span, 4)?.bytes),
          name: text(one(span, 5)?.bytes),
          kind: Number(one(span, 6)?.int ?? 0n),
          startNs: one(span, 7)?.int ?? 0n,
          endNs: one(span, 8)?.int ?? 0n,
          attributes: keyValues(sub(span, 9)),
          // Event: 1 time, 2 name, 3 attributes.
          events: sub(span, 11).map((event) => ({ name: text(one(event, 2)?.bytes), attributes: keyValues(sub(event, 3)) })),
          status: Number(one(sub(span, 15)[0] ?? [], 3)?.int ?? 0n),
          resource,
        });
      }
    }
  }
  return spans;
}

// --- OTLP/JSON (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding) ---

interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonAnyValue[] };
}
type JsonKeyValue = { key: string; value: JsonAnyValue };

function jsonValue(value: JsonAnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(jsonValue);
  return undefined;
}
const jsonAttributes = (list: JsonKeyValue[] | undefined) => Object.fromEntries((list ?? []).map((kv) => [kv.key, jsonValue(kv.value)]));

interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: JsonKeyValue[];
  events?: Array<{ name: string; attributes?: JsonKeyValue[] }>;
  status?: { code?: number };
}

function decodeJson(body: string): ReceivedSpan[] {
  const request = JSON.parse(body) as { resourceSpans?: Array<{ resource?: { attributes?: JsonKeyValue[] }; scopeSpans?: Array<{ spans?: JsonSpan[] }> }> };
  return (request.resourceSpans ?? []).flatMap((rs) =>
    (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? "",
        name: span.name,
        kind: span.kind,
        startNs: BigInt(span.startTimeUnixNano),
        endNs: BigInt(span.endTimeUnixNano),
        attributes: jsonAttributes(span.attributes),
        events: (span.events ?? []).map((e) => ({ name: e.name, attributes: jsonAttributes(e.attributes) })),
        status: span.status?.code ?? 0,
        resource: jsonAttributes(rs.resource?.attributes),
      })),
    ),
  );
}

export async function startOtlpReceiver({ hang = false }: { hang?: boolean } = {}): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const headers: IncomingMessage["headers"][] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (hang) {
        held.push(res);
        res.on("close", () => held.splice(held.indexOf(res), 1));
        return;
      }
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      const type = req.headers["content-type"] ?? "";
      contentTypes.push(type);
      headers.push(req.headers);
      const body = Buffer.concat(chunks);
      spans.push(...(type.startsWith("application/json") ? decodeJson(body.toString("utf8")) : decodeProtobuf(new Uint8Array(body))));
      // An empty ExportTraceServiceResponse: everything accepted.
      if (type.startsWith("application/json")) res.writeHead(200, { "content-type": "application/json" }).end("{}");
      else res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    headers,
    waiting: () => held.length,
    async close() {
      for (const res of [...held]) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
