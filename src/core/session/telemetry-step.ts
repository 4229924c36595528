import type { EventSink } from "../agent/session.js";
import type { McptermConfig } from "../config/index.js";
import type { UserSettings } from "../config/user-settings.js";
import type { WireFrame } from "../mcp/types.js";
import { openTelemetry, resolveTelemetry, type SessionTelemetry } from "../telemetry/index.js";

export interface TelemetryStepInput {
  /** --otlp-endpoint, as typed. */
  flag: string | undefined;
  env: NodeJS.ProcessEnv;
  settings: UserSettings;
  config: McptermConfig;
  sessionId: string;
  model: () => string;
  modelEndpoint: string | undefined;
  redact: (text: string) => string;
  /** Teaches the session's redactor a secret (the collector's header values). */
  learn: (secret: string) => void;
  /** A live warning (the collector cannot be reached): said once, on stderr or in the TUI. */
  warn: (text: string) => void;
}

/**
 * Live export for a session when the flag, the OTEL_* environment or the user's settings ask for
 * it (never the project's config); undefined otherwise, and then no OpenTelemetry code is loaded.
 * `warnings` are settings that could not be used, for the session's notices.
 */
export async function openSessionTelemetry(
  input: TelemetryStepInput,
): Promise<{ telemetry: SessionTelemetry | undefined; warnings: string[] }> {
  const { settings, warnings } = resolveTelemetry({
    flag: input.flag,
    env: input.env,
    user: input.settings.telemetry(),
  });
  if (settings === undefined) return { telemetry: undefined, warnings };
  // Header values are API keys: the redactor learns them, so no message or trace shows them.
  for (const value of Object.values(settings.headers)) input.learn(value);
  const servers = new Map(input.config.servers.map((server) => [server.name, server]));
  const telemetry = await openTelemetry({
    settings,
    sessionId: input.sessionId,
    model: input.model,
    modelEndpoint: input.modelEndpoint,
    endpoint: (name) => {
      const server = servers.get(name);
      return server ? { transport: server.transport, url: server.url } : undefined;
    },
    redact: input.redact,
    warn: input.warn,
  });
  return { telemetry, warnings };
}

/** Engine events to the trace file and, when export is on, to the exporter too. */
export function withTelemetrySink(sink: EventSink, telemetry: SessionTelemetry | undefined): EventSink {
  if (telemetry === undefined) return sink;
  return {
    write: (record) => {
      sink.write(record);
      telemetry.write(record);
    },
  };
}

/** Wire frames to the trace file and, when export is on, to the exporter too. */
export function withTelemetryWire(
  wire: (frame: WireFrame) => void,
  telemetry: SessionTelemetry | undefined,
): (frame: WireFrame) => void {
  if (telemetry === undefined) return wire;
  return (frame) => {
    wire(frame);
    telemetry.wire(frame);
  };
}
