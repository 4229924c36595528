import type { EventSink } from "../agent/session.js";
import type { OutgoingRequest, RequestMeta, ServerSnapshot, WireFrame } from "../mcp/types.js";
import type { ServerEndpoint } from "./mcp-request-spans.js";
import type { TelemetrySettings } from "./telemetry-settings.js";

export { resolveTelemetry, type TelemetrySettings } from "./telemetry-settings.js";

/** What the session tells the exporter that its events and frames do not. */
export interface TelemetryContext {
  settings: TelemetrySettings;
  /** The session's id (its trace file's name): `gen_ai.conversation.id` on every turn. */
  sessionId: string;
  /** The model the next request goes to (it changes with /model). */
  model: () => string;
  /** The model endpoint, for `server.address` on chat spans (no path, no credentials). */
  modelEndpoint: string | undefined;
  /** How a server is reached (its transport and URL), for its requests' spans. */
  endpoint: (server: string) => ServerEndpoint | undefined;
  /** Removes secrets from anything taken from the wire (errors, URIs) and from captured content. */
  redact: (text: string) => string;
  /** Said once, when the collector cannot be reached or does not answer. */
  warn: (text: string) => void;
}

/**
 * Live OpenTelemetry export for one session: another consumer of the engine's events and the
 * servers' JSON-RPC frames, beside the trace file. Each turn is a trace (`invoke_agent`), with
 * its model steps, tool calls, knowledge-base retrieval and MCP requests as spans; each MCP
 * request carries its span's trace context in `_meta`, so a server's own spans join it.
 */
export interface SessionTelemetry extends EventSink {
  /** One JSON-RPC frame to or from a server. */
  wire(frame: WireFrame): void;
  /** `_meta` entries for a request about to be sent: `traceparent` (and `tracestate`) of its span. */
  readonly requestMeta: RequestMeta;
  /** The servers start connecting: their initialize and listing become one start-up trace. */
  serversStarting(): void;
  /** Every server settled (connected or failed). */
  serversSettled(servers: readonly ServerSnapshot[]): void;
  /** Ends open spans and sends what is left, waiting at most `settings.exitFlushMs`. */
  close(): Promise<void>;
}

/**
 * Starts export. The OpenTelemetry packages are loaded here and only here, so a session with
 * export off never reads them (start-up time is measured, see bench/README.md).
 */
export async function openTelemetry(context: TelemetryContext): Promise<SessionTelemetry> {
  const { startSessionTelemetry } = await import("./session-telemetry.js");
  return startSessionTelemetry(context);
}

export type { OutgoingRequest, ServerEndpoint };
