/**
 * A real OTLP/HTTP trace receiver: what a collector is to mcpterm. It takes POST /v1/traces in
 * both encodings (application/json, application/x-protobuf, gzip or not), decodes protobuf with
 * the official OpenTelemetry proto definitions (the otlp-transformer package's generated code),
 * and keeps every span in one plain shape so tests assert on what arrived, not on how.
 */
import { createRequire } from "node:module";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { gunzipSync } from "node:zlib";

export type AttributeValue = string | number | boolean | Array<string | number | boolean>;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, AttributeValue>;
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string | undefined };
  events: Array<{ name: string; attributes: Record<string, AttributeValue> }>;
  /** The resource's attributes (service.name, …) of the batch it came in. */
  resource: Record<string, AttributeValue>;
}

export interface ReceivedExport {
  path: string;
  contentType: string;
  headers: IncomingHttpHeaders;
  spans: ReceivedSpan[];
}

export interface OtlpReceiver {
  /** e.g. http://127.0.0.1:PORT (the collector's base address; traces go to /v1/traces). */
  endpoint: string;
  exports: ReceivedExport[];
  spans(): ReceivedSpan[];
  close(): Promise<void>;
}

export interface OtlpReceiverOptions {
  /** Never answer (a collector that hangs): requests are read and left open. */
  hang?: boolean;
}

interface ProtoType {
  decode(bytes: Uint8Array): unknown;
  toObject(
    message: unknown,
    options: { longs: typeof String; bytes: typeof String; defaults: boolean },
  ): unknown;
}

const require = createRequire(import.meta.url);
// The generated protobufjs code of the OTLP protos, from @opentelemetry/otlp-transformer 0.200.
const root = require("otlp-proto-definitions/build/src/generated/root.js") as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: ProtoType } } } } };
};
const ExportTraceServiceRequest = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

export async function startOtlpReceiver(options: OtlpReceiverOptions = {}): Promise<OtlpReceiver> {
  const exports: ReceivedExport[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (options.hang) return;
      const contentType = request.headers["content-type"] ?? "";
      let body = Buffer.concat(chunks);
      if (request.headers["content-encoding"] === "gzip") body = gunzipSync(body);
      const decoded: unknown = contentType.includes("json")
        ? JSON.parse(body.toString("utf8"))
        : ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(body), {
            longs: String,
            bytes: String,
            defaults: false,
          });
      exports.push({
        path: request.url ?? "",
        contentType,
        headers: request.headers,
        spans: spansOf(decoded, !contentType.includes("json")),
      });
      response.writeHead(200, {
        "content-type": contentType.includes("json") ? "application/json" : contentType,
      });
      response.end(contentType.includes("json") ? "{}" : "");
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    exports,
    spans: () => exports.flatMap((batch) => batch.spans),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// The decoded request is OTLP's shape in either encoding; only the ids (hex in JSON, base64
// from protobufjs) and the 64-bit numbers differ.
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return */
function spansOf(request: any, base64Ids: boolean): ReceivedSpan[] {
  const id = (value: unknown): string | undefined => {
    if (typeof value !== "string" || value === "") return undefined;
    return base64Ids ? Buffer.from(value, "base64").toString("hex") : value.toLowerCase();
  };
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? [])
      for (const span of scopeSpans.spans ?? [])
        spans.push({
          traceId: id(span.traceId) ?? "",
          spanId: id(span.spanId) ?? "",
          parentSpanId: id(span.parentSpanId),
          name: span.name,
          kind: Number(span.kind ?? 0),
          startMs: Number(BigInt(span.startTimeUnixNano ?? 0) / 1_000_000n),
          endMs: Number(BigInt(span.endTimeUnixNano ?? 0) / 1_000_000n),
          attributes: attributesOf(span.attributes),
          status: { code: Number(span.status?.code ?? 0), message: span.status?.message || undefined },
          events: (span.events ?? []).map((event: any) => ({
            name: event.name,
            attributes: attributesOf(event.attributes),
          })),
          resource,
        });
  }
  return spans;
}

function attributesOf(list: any): Record<string, AttributeValue> {
  const attributes: Record<string, AttributeValue> = {};
  for (const { key, value } of list ?? []) attributes[key] = valueOf(value);
  return attributes;
}

function valueOf(value: any): AttributeValue {
  if (value === undefined || value === null) return "";
  if ("stringValue" in value) return value.stringValue;
  if ("boolValue" in value) return value.boolValue;
  if ("intValue" in value) return Number(value.intValue);
  if ("doubleValue" in value) return Number(value.doubleValue);
  if ("arrayValue" in value)
    return (value.arrayValue.values ?? []).map((item: any) => valueOf(item) as string | number | boolean);
  return "";
}
/* eslint-enable */
