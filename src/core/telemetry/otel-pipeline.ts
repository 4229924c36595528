import { randomUUID } from "node:crypto";
import type { Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { MCPTERM_VERSION } from "../version.js";
import { ExportHealth, GuardedExporter } from "./export-health.js";
import type { TelemetrySettings } from "./telemetry-settings.js";

/** Longest attribute value kept: a captured tool result is cut here rather than sent whole. */
const ATTRIBUTE_VALUE_LIMIT = 16_384;
/** Spans per export request. */
const BATCH_SIZE = 512;

export interface ExportPipeline {
  tracer: Tracer;
  health: ExportHealth;
  exporter: GuardedExporter;
  /**
   * Sends what is queued, waiting at most `settings.exitFlushMs`, and not at all once the
   * collector is known to be down: an exit never waits on a collector that cannot answer.
   */
  flush(): Promise<void>;
}

/**
 * The OpenTelemetry SDK as mcpterm runs it: its own tracer provider (nothing global is
 * registered, so nothing else in the process is traced by accident), spans batched on a timer
 * off every path that a person or a tool call waits on, a bounded queue, and the OTLP/HTTP
 * exporter for the protocol asked for (protobuf by default, JSON).
 */
export function startExportPipeline(
  settings: TelemetrySettings,
  hooks: { warn: (text: string) => void; redact: (text: string) => string },
): ExportPipeline {
  const health = new ExportHealth(hooks.redact(settings.url), hooks.warn, hooks.redact);
  const config = {
    url: settings.url,
    headers: settings.headers,
    timeoutMillis: settings.timeoutMs,
    // A slow collector holds at most two exports; the rest wait in the batch queue, bounded.
    concurrencyLimit: 2,
    ...(settings.compression === "gzip" ? { compression: "gzip" as never } : {}),
    httpAgentOptions: health.agentFactory(),
    userAgent: `mcpterm/${MCPTERM_VERSION}`,
  };
  const otlp = settings.protocol === "http/json" ? new JsonExporter(config) : new ProtobufExporter(config);
  const exporter = new GuardedExporter(otlp, health);
  const processor = new BatchSpanProcessor({
    exporter,
    maxQueueSize: settings.maxQueueSize,
    maxExportBatchSize: Math.min(BATCH_SIZE, settings.maxQueueSize),
    scheduledDelayMillis: settings.scheduleDelayMs,
    exportTimeoutMillis: settings.timeoutMs,
  });
  const resource = defaultResource().merge(
    resourceFromAttributes({
      ...settings.resourceAttributes,
      "service.name": settings.serviceName,
      "service.version": MCPTERM_VERSION,
      "service.instance.id": randomUUID(),
      "process.pid": process.pid,
    }),
  );
  const provider = new TracerProvider({
    resource,
    spanProcessors: [processor],
    spanLimits: { attributeValueLengthLimit: ATTRIBUTE_VALUE_LIMIT },
  });
  return {
    tracer: provider.getTracer("mcpterm", MCPTERM_VERSION),
    health,
    exporter,
    flush: () => flushWithin(provider, health, settings.exitFlushMs),
  };
}

async function flushWithin(provider: TracerProvider, health: ExportHealth, ms: number): Promise<void> {
  if (health.down || ms <= 0) return;
  const down = health.whenDown();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), ms);
    timer.unref();
  });
  const outcome = await Promise.race([
    provider.forceFlush({ timeoutMillis: ms }).then(
      () => "sent" as const,
      () => "late" as const,
    ),
    late,
    down.promise.then(() => "down" as const),
  ]);
  clearTimeout(timer);
  down.cancel();
  // Already down: failed() only notes the time again, the warning was given.
  if (outcome === "late")
    health.failed(`the collector did not take the last spans within ${ms} ms of the exit`);
}
