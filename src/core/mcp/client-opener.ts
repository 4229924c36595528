import {
  Client,
  type ClientCapabilities,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  type PriorDiscovery,
} from "@modelcontextprotocol/client";
import type { ServerConfig } from "../config/config-types.js";
import type { LoggingLevel } from "../deprecated-mcp.js";
import { ServerUnavailableError } from "../errors.js";
import type { ServerAuth } from "../oauth/server-auth.js";
import { CLIENT_INFO } from "../version.js";
import { CLIENT_CAPABILITIES } from "./client-capabilities.js";
import { isAuthError, isTimeout, withDeadline } from "./connection-failure.js";
import type { MalformedTools } from "./malformed-tools.js";
import type { WireWatcher } from "./tapped-transport.js";
import { PrivateAnswers } from "./private-answers.js";
import { ProbeWatch, type ProbeOutcome } from "./probe-watch.js";
import {
  closedOnProbe,
  LEGACY_PRIOR,
  mayFallBackToSse,
  MODERN_REVISION,
  versionNegotiation,
  type TransportKind,
} from "./protocol-era.js";
import { rootsOffer } from "./roots.js";
import { StdioProcessTransport } from "./stdio-process-transport.js";
import { LostAnswers } from "./lost-answers.js";
import { TappedTransport } from "./tapped-transport.js";
import type { TransportFactory } from "./transport-factory.js";
import type { RequestMeta, ServerSnapshot, WireFrame } from "./types.js";

/**
 * For the SDK client, which would compile a tool's outputSchema to check its results: one schema
 * ajv cannot compile would fail the call. mcpterm checks results itself (output-schema.ts).
 */
const UNCHECKED_OUTPUT: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/** One attempt's parts, as soon as they exist: a stop must be able to close them mid-connect. */
export interface OpenedParts {
  client: Client;
  tapped: TappedTransport;
  /** The server's process, when the transport is one. */
  stdio: StdioProcessTransport | undefined;
  /** What a stdio server left a request waiting on (see LostAnswers); none over HTTP. */
  lost: LostAnswers | undefined;
}

/** What a connection lends the opening of its client. */
export interface ClientOpenerOptions {
  config: ServerConfig;
  auth: ServerAuth | undefined;
  /** Makes the transports (see TransportFactory): tests may hand it an in-memory pair. */
  transports: TransportFactory;
  onWire?: ((frame: WireFrame) => void) | undefined;
  requestMeta?: RequestMeta | undefined;
  note: (level: LoggingLevel, text: string) => void;
  /** Registers the connection's answers to the server's requests and notifications. */
  register(client: Client): void;
  /**
   * A fresh check of the new transport's `tools/list` answers; `modern` says whether the client
   * settled on 2026-07-28, asked as each answer comes.
   */
  checkAnswers(modern: () => boolean): MalformedTools;
  /** The task driver's watcher for the new client (task-driver.ts). */
  watchTasks(client: Client): WireWatcher;
  made(parts: OpenedParts): void;
  isClosing(): boolean;
  /** A 404 for the session the server had just given: no other transport would help. */
  sessionLostOnStart(error: unknown): boolean;
  /** How a stdio server's process ended, with the stderr lines that matter (exitSentence's words). */
  endOf(process: StdioProcessTransport): string | undefined;
}

/**
 * Opens one server's client: which transports are tried, in which order, and over which the
 * revision is settled (versionNegotiation, in protocol-era.ts, decides that part).
 */
export class ClientOpener {
  /** The 2026 probe of the latest attempt. */
  private probe = new ProbeWatch();
  /** How the process ended on the probe, when it did and was started again (see openStdio). */
  private endedOnProbe: string | undefined;

  constructor(private readonly options: ClientOpenerOptions) {}

  /** Over which transport the latest attempt went: a probe is waited out only over stdio. */
  private probeKind: TransportKind = "stdio";

  /** Why the latest attempt fell back to 2025 when the server is to blame (see ProbeOutcome). */
  probeOutcome(): ProbeOutcome | undefined {
    if (this.endedOnProbe !== undefined) return { kind: "exited", ended: this.endedOnProbe };
    return this.probeKind === "stdio" ? this.probe.outcome() : undefined;
  }

  /** Why the latest attempt did not speak 2026-07-28 with a server that answered as one (ProbeWatch). */
  fallbackStory(): string | undefined {
    const { typed, protocol } = this.options.config;
    const pinned = protocol !== undefined && protocol !== "auto" && protocol !== MODERN_REVISION;
    return this.probe.fallbackStory(typed === true, pinned);
  }

  /** Connects a new client; throws what went wrong. The transport is "sse" after a fallback. */
  async open(): Promise<{ client: Client; transport: ServerSnapshot["transport"] }> {
    const { config, auth } = this.options;
    // Each start is told as it went: a crash on an earlier start's probe is not this one's.
    this.endedOnProbe = undefined;
    if (config.transport === "stdio") return { client: await this.openStdio(), transport: "stdio" };
    if (auth?.shouldRefreshNow()) await auth.refreshNow(auth.fetch(fetch));
    if (config.transport === "sse") return { client: await this.connectWith("sse"), transport: "sse" };
    try {
      return { client: await this.connectWith("http"), transport: config.transport };
    } catch (streamableError) {
      // Servers written before Streamable HTTP only speak the legacy SSE transport (and so only
      // 2025); one that asked for authorization speaks Streamable HTTP (a ServerUnavailableError is mcpterm's
      // own verdict on its sign-in, such as a 401 with no OAuth metadata, which another
      // transport would only repeat, discovery and all), and one pinned to 2026 must not be
      // heard in 2025.
      if (
        this.options.isClosing() ||
        streamableError instanceof ServerUnavailableError ||
        this.options.sessionLostOnStart(streamableError) ||
        !mayFallBackToSse(config.protocol) ||
        isTimeout(streamableError) ||
        auth?.describe(streamableError) ||
        isAuthError(streamableError)
      )
        throw streamableError;
      // The Streamable HTTP attempt's probe tells why it failed (an unusable server/discover
      // answer): kept when the legacy transport fails too, whose own probe would replace it.
      const [streamableProbe, streamableKind] = [this.probe, this.probeKind];
      try {
        return { client: await this.connectWith("sse"), transport: "sse" };
      } catch {
        [this.probe, this.probeKind] = [streamableProbe, streamableKind];
        throw streamableError;
      }
    }
  }

  /** A stdio server that ended its process on the 2026 probe is started again and spoken to in 2025. */
  private async openStdio(): Promise<Client> {
    let process: StdioProcessTransport | undefined;
    try {
      return await this.connectWith("stdio", undefined, (started) => (process = started));
    } catch (error) {
      if (this.options.isClosing() || !closedOnProbe(error)) throw error;
      await process?.close();
      // A crash on a method it does not know: said, or each start hides one (doctor, tools' lint).
      this.endedOnProbe = process && this.options.endOf(process);
      if (this.endedOnProbe !== undefined)
        this.options.note(
          "warning",
          `the server's process ${this.endedOnProbe} on server/discover (the ${MODERN_REVISION} probe); started again and spoken to in 2025-11-25`,
        );
      return this.connectWith("stdio", LEGACY_PRIOR);
    }
  }

  private async connectWith(
    kind: TransportKind,
    prior?: PriorDiscovery,
    started?: (process: StdioProcessTransport) => void,
  ): Promise<Client> {
    const { config, onWire, requestMeta } = this.options;
    const { startupTimeoutMs, protocol } = config;
    const transport = this.options.transports(kind);
    const stdio = transport instanceof StdioProcessTransport ? transport : undefined;
    if (stdio) started?.(stdio);
    const client = new Client(CLIENT_INFO, {
      capabilities: this.capabilities(),
      jsonSchemaValidator: UNCHECKED_OUTPUT,
      versionNegotiation: versionNegotiation(protocol ?? "auto", kind, startupTimeoutMs),
    });
    this.options.register(client);
    const privateAnswers = new PrivateAnswers();
    this.probe = new ProbeWatch();
    this.probeKind = kind;
    // A stdio server's stray answers and 2026 requests: over HTTP an answer comes on its
    // request's own stream, and so does a request.
    const lost = stdio
      ? new LostAnswers({
          modern: () => client.getProtocolEra() === "modern",
          note: (text) => this.options.note("warning", text),
        })
      : undefined;
    const tapped = TappedTransport.wrap(
      transport,
      (direction, message) => {
        if (onWire)
          onWire({
            server: config.name,
            direction,
            at: Date.now(),
            message: privateAnswers.forTrace(direction, message),
          });
      },
      [
        // First, since the others read an answer by its id.
        ...(lost ? [lost] : []),
        this.options.checkAnswers(() => client.getProtocolEra() === "modern"),
        this.options.watchTasks(client),
        this.probe,
      ],
      // The session's `_meta` hook (trace context) bound to this server.
      requestMeta &&
        ((request) =>
          requestMeta({
            server: config.name,
            method: request.method,
            id: request.id,
            params: request.params,
          })),
    );
    this.options.made({ client, tapped, stdio, lost });
    await withDeadline(
      client.connect(tapped, { timeout: startupTimeoutMs, ...(prior ? { prior } : {}) }),
      startupTimeoutMs,
      `did not finish connecting (server/discover or initialize) within ${startupTimeoutMs} ms, its startupTimeoutMs`,
    );
    return client;
  }

  /** What this server is told mcpterm can do: everything, but roots only where they are offered. */
  private capabilities(): ClientCapabilities {
    const offer = rootsOffer(this.options.config);
    if (offer.offered) return CLIENT_CAPABILITIES;
    this.options.note("info", `not offered roots: ${offer.reason}`);
    const { roots: _roots, ...rest } = CLIENT_CAPABILITIES;
    return rest;
  }
}
