import type { UserTelemetry } from "../config/user-settings.js";
import { isHttpUrl } from "../config/http-url.js";
import { moveUrlCredentials } from "../config/url-credentials.js";
import { MAX_TIMER_MS } from "../max-timer.js";
import { UsageError } from "../errors.js";

export type OtlpProtocol = "http/protobuf" | "http/json";

/** How live export is set up, once it is on: every value decided, with where the URL came from. */
export interface TelemetrySettings {
  /** The full URL spans are POSTed to (…/v1/traces). */
  url: string;
  /** What chose the URL, for messages: `--otlp-endpoint`, an environment variable, the settings. */
  source: string;
  protocol: OtlpProtocol;
  /** Sent with every export; secrets (learned by the session's redactor, never printed). */
  headers: Record<string, string>;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  /** Prompts, answers, arguments and results go into spans (redacted); off unless asked for. */
  captureContent: boolean;
  /** One export's limit; a collector slower than this is treated as down. */
  timeoutMs: number;
  /** How long an exit waits at most for the last spans. */
  exitFlushMs: number;
  /** How often finished spans are sent. */
  scheduleDelayMs: number;
  /** Spans waiting to be sent at most; more are dropped, never held in memory without end. */
  maxQueueSize: number;
  compression: "gzip" | "none";
  /** The trace mcpterm runs inside (TRACEPARENT in its environment, as CI systems set it). */
  parent: { traceparent: string; tracestate?: string } | undefined;
}

export interface TelemetryResolution {
  /** Undefined: export is off. */
  settings: TelemetrySettings | undefined;
  /** What was set but cannot be used, one sentence each (the run goes on). */
  warnings: string[];
}

const DEFAULT_ENDPOINT = "http://localhost:4318";
const TRACES_PATH = "v1/traces";
/** Shorter than the OpenTelemetry default (10 s): nothing waits on an export, and a stuck one holds a socket. */
const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_EXIT_FLUSH_MS = 2000;
/** Shorter than the OpenTelemetry default (5 s), so a session shows up while it runs. */
const DEFAULT_SCHEDULE_DELAY_MS = 1000;
const DEFAULT_MAX_QUEUE_SIZE = 2048;
/** The most spans mcpterm holds waiting for a collector, whatever OTEL_BSP_MAX_QUEUE_SIZE says. */
const MAX_QUEUE_SIZE = 100_000;

/**
 * Whether and where spans are exported, the way every OpenTelemetry SDK reads it: `--otlp-endpoint`
 * first, then the OTEL_* environment, then the `telemetry` block of the user's own settings. Off
 * unless one of them asks for it: `--otlp-endpoint`, OTEL_TRACES_EXPORTER=otlp, or the settings'
 * `enabled` (or an `endpoint` there). OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none turn
 * off what the settings turned on. A bad flag is a usage error; a bad environment or settings
 * value is a warning, since it may have been set for another program: no export for a bad
 * endpoint, the default for a number out of range.
 */
export function resolveTelemetry(input: {
  flag: string | undefined;
  env: NodeJS.ProcessEnv;
  user: UserTelemetry;
  /** How the flag is spelled in messages: `--otlp-endpoint`, or `trace --otlp`'s `--otlp`. */
  flagName?: string;
}): TelemetryResolution {
  const { flag, env, user, flagName = "--otlp-endpoint" } = input;
  const warnings: string[] = [];
  if (flag !== undefined && !isHttpUrl(flag))
    throw new UsageError(
      `${flagName} ${flag} is not an http:// or https:// URL; give the collector's OTLP/HTTP address, e.g. http://localhost:4318.`,
    );
  if (!asked(flag, env, user, warnings)) return { settings: undefined, warnings };

  const endpoint = chooseEndpoint(flag, flagName, env, user);
  if (!isHttpUrl(endpoint.url)) {
    warnings.push(
      `${endpoint.source} is not an http:// or https:// URL (${endpoint.url}); no traces are exported.`,
    );
    return { settings: undefined, warnings };
  }
  const protocol = chooseProtocol(env, user, warnings);
  const given = {
    ...(user.headers ?? {}),
    ...keyValues(env.OTEL_EXPORTER_OTLP_HEADERS, "OTEL_EXPORTER_OTLP_HEADERS", warnings),
    ...keyValues(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS, "OTEL_EXPORTER_OTLP_TRACES_HEADERS", warnings),
  };
  // A user name and password in the URL go as Basic authorization, as a remote MCP server's do;
  // with an Authorization header too, which one is meant is not guessed.
  const moved = moveUrlCredentials(endpoint.url, given);
  if ("problem" in moved) {
    warnings.push(
      `${endpoint.source} holds a user name and password, and the collector's headers have an Authorization header too; keep one of the two. No traces are exported.`,
    );
    return { settings: undefined, warnings };
  }
  const { headers } = moved;
  const resourceAttributes = {
    ...(user.resourceAttributes ?? {}),
    ...keyValues(env.OTEL_RESOURCE_ATTRIBUTES, "OTEL_RESOURCE_ATTRIBUTES", warnings),
  };
  const serviceName =
    nonEmpty(env.OTEL_SERVICE_NAME) ?? resourceAttributes["service.name"] ?? user.serviceName ?? "mcpterm";
  const compression =
    (env.OTEL_EXPORTER_OTLP_TRACES_COMPRESSION ?? env.OTEL_EXPORTER_OTLP_COMPRESSION) === "gzip"
      ? "gzip"
      : "none";
  return {
    settings: {
      url: moved.url,
      source: endpoint.source,
      protocol,
      headers,
      serviceName,
      resourceAttributes,
      captureContent: capturesContentByEnv(env) ?? user.captureContent ?? false,
      timeoutMs: numberSetting(
        env,
        ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"],
        { min: 1, max: MAX_TIMER_MS, fallback: DEFAULT_TIMEOUT_MS, unit: "milliseconds" },
        warnings,
      ),
      exitFlushMs: exitFlush(user, warnings),
      scheduleDelayMs: numberSetting(
        env,
        ["OTEL_BSP_SCHEDULE_DELAY"],
        { min: 0, max: MAX_TIMER_MS, fallback: DEFAULT_SCHEDULE_DELAY_MS, unit: "milliseconds" },
        warnings,
      ),
      maxQueueSize: numberSetting(
        env,
        ["OTEL_BSP_MAX_QUEUE_SIZE"],
        { min: 1, max: MAX_QUEUE_SIZE, fallback: DEFAULT_MAX_QUEUE_SIZE, unit: "spans" },
        warnings,
      ),
      compression,
      parent: parentContext(env),
    },
    warnings,
  };
}

/** Whether export was asked for (see resolveTelemetry); unsupported exporters are named. */
function asked(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  user: UserTelemetry,
  warnings: string[],
): boolean {
  if (flag !== undefined) return true;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
  if (exporters.length > 0) {
    const others = exporters.filter((name) => name !== "otlp" && name !== "none");
    if (others.length > 0)
      warnings.push(
        `OTEL_TRACES_EXPORTER=${env.OTEL_TRACES_EXPORTER ?? ""}: mcpterm exports traces with otlp only; ${others.join(", ")} ${others.length === 1 ? "is" : "are"} ignored.`,
      );
    return exporters.includes("otlp");
  }
  return user.enabled ?? user.endpoint !== undefined;
}

function chooseEndpoint(
  flag: string | undefined,
  flagName: string,
  env: NodeJS.ProcessEnv,
  user: UserTelemetry,
): { url: string; source: string } {
  if (flag !== undefined) return { url: tracesUrl(flag), source: flagName };
  const traces = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (traces !== undefined) return { url: traces, source: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" };
  const base = nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (base !== undefined) return { url: tracesUrl(base, true), source: "OTEL_EXPORTER_OTLP_ENDPOINT" };
  if (user.endpoint !== undefined)
    return { url: tracesUrl(user.endpoint), source: "telemetry.endpoint in your settings" };
  return { url: tracesUrl(DEFAULT_ENDPOINT, true), source: "the default endpoint" };
}

/**
 * The traces URL for a collector's address: `/v1/traces` added to its path, as the spec says for
 * OTEL_EXPORTER_OTLP_ENDPOINT (`always`); a flag or setting that already ends so is kept as given.
 */
export function tracesUrl(endpoint: string, always = false): string {
  if (!always && /\/v1\/traces\/?$/.test(endpoint)) return endpoint;
  return endpoint.endsWith("/") ? `${endpoint}${TRACES_PATH}` : `${endpoint}/${TRACES_PATH}`;
}

function chooseProtocol(env: NodeJS.ProcessEnv, user: UserTelemetry, warnings: string[]): OtlpProtocol {
  const [name, value] =
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL !== undefined
      ? ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL]
      : env.OTEL_EXPORTER_OTLP_PROTOCOL !== undefined
        ? ["OTEL_EXPORTER_OTLP_PROTOCOL", env.OTEL_EXPORTER_OTLP_PROTOCOL]
        : ["telemetry.protocol in your settings", user.protocol];
  const protocol = value?.trim();
  if (protocol === undefined || protocol === "" || protocol === "http/protobuf") return "http/protobuf";
  if (protocol === "http/json") return "http/json";
  warnings.push(
    protocol === "grpc"
      ? `${name}=grpc is not supported: mcpterm sends http/protobuf, so point it at the collector's OTLP/HTTP port (4318), not gRPC's (4317).`
      : `${name}=${protocol} is not a protocol mcpterm knows (http/protobuf, http/json); it sends http/protobuf.`,
  );
  return "http/protobuf";
}

/**
 * `key=value,key2=value2` as OTEL_EXPORTER_OTLP_HEADERS and OTEL_RESOURCE_ATTRIBUTES write it
 * (values percent-encoded). An entry without `=` is named and left out; the values are never
 * quoted in the warning, since headers hold API keys.
 */
export function keyValues(
  text: string | undefined,
  name: string,
  warnings: string[],
): Record<string, string> {
  const entries: Record<string, string> = {};
  if (text === undefined) return entries;
  for (const [index, part] of text.split(",").entries()) {
    if (part.trim() === "") continue;
    const equals = part.indexOf("=");
    const key = equals > 0 ? part.slice(0, equals).trim() : "";
    if (key === "") {
      warnings.push(`${name}: entry ${index + 1} is not key=value; it is left out.`);
      continue;
    }
    entries[decode(key)] = decode(part.slice(equals + 1).trim());
  }
  return entries;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

/** OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT, the GenAI conventions' switch; undefined when unset. */
export function capturesContentByEnv(env: NodeJS.ProcessEnv): boolean | undefined {
  return booleanVariable(env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT);
}

function booleanVariable(value: string | undefined): boolean | undefined {
  const text = value?.trim().toLowerCase();
  if (text === "true" || text === "1") return true;
  if (text === "false" || text === "0") return false;
  return undefined;
}

/**
 * A whole number (milliseconds, spans) from the first of `names` (the signal's own variable, then
 * the general one) that holds a usable one: each set one outside `min`…`max` or not a number is
 * named in a warning and passed over, and with none the default is used (0 ms for an export's
 * timeout would fail every export; past MAX_TIMER_MS a timer fires at once).
 */
function numberSetting(
  env: NodeJS.ProcessEnv,
  names: readonly string[],
  limits: { min: number; max: number; fallback: number; unit: string },
  warnings: string[],
): number {
  const unusable: string[] = [];
  let used: { value: number; from: string } | undefined;
  for (const name of names) {
    const text = nonEmpty(env[name]);
    if (text === undefined) continue;
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (value >= limits.min && value <= limits.max) {
      used = { value, from: `${name}=${text}` };
      break;
    }
    unusable.push(`${name}=${text}`);
  }
  // Each passed over is named, with what is used instead.
  const instead = used ? used.from : `the default, ${limits.fallback}`;
  for (const setting of unusable)
    warnings.push(
      `${setting} is not a whole number of ${limits.unit} from ${limits.min} to ${limits.max}; mcpterm uses ${instead}.`,
    );
  return used?.value ?? limits.fallback;
}

/** telemetry.exitFlushMs from the settings (a number of 0 or more, see user-settings.ts), within a timer's reach. */
function exitFlush(user: UserTelemetry, warnings: string[]): number {
  const ms = user.exitFlushMs;
  if (ms === undefined) return DEFAULT_EXIT_FLUSH_MS;
  if (ms <= MAX_TIMER_MS) return ms;
  warnings.push(
    `telemetry.exitFlushMs in your settings (${ms}) is more than a timer can wait (${MAX_TIMER_MS} ms); mcpterm waits ${DEFAULT_EXIT_FLUSH_MS} ms for the last spans.`,
  );
  return DEFAULT_EXIT_FLUSH_MS;
}

const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** TRACEPARENT / TRACESTATE from the environment, when they hold a valid W3C trace context. */
function parentContext(env: NodeJS.ProcessEnv): TelemetrySettings["parent"] {
  const traceparent = nonEmpty(env.TRACEPARENT)?.toLowerCase();
  if (traceparent === undefined || !TRACEPARENT.test(traceparent)) return undefined;
  const tracestate = nonEmpty(env.TRACESTATE);
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}
