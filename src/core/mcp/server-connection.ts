import {
  Client,
  type ClientCapabilities,
  type CompleteRequest,
  type CompleteResult,
  type GetPromptResult,
  type JSONRPCRequest,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  type PriorDiscovery,
  type ReadResourceResult,
  type Tool,
} from "@modelcontextprotocol/client";
import type { ServerConfig } from "../config/config-types.js";
import type { LogMessageParams, LoggingLevel, Root } from "../deprecated-mcp.js";
import { errorMessage, ServerUnavailableError } from "../errors.js";
import { unknownResultMessage } from "../policy/resend-rule.js";
import { ServerAuth, type OAuthOptions } from "../oauth/server-auth.js";
import { CLIENT_INFO } from "../version.js";
import { declineServerRequests } from "../person/decline-server-requests.js";
import type { ServerRequestHandlers } from "../person/server-request-handlers.js";
import { CLIENT_CAPABILITIES } from "./client-capabilities.js";
import { registerClientHandlers } from "./client-handlers.js";
import {
  describeConnectFailure,
  describeExit,
  isAuthError,
  isTimeout,
  withDeadline,
} from "./connection-failure.js";
import { PrivateAnswers } from "./private-answers.js";
import {
  closedOnProbe,
  MODERN_REVISION,
  negotiatedProtocol,
  versionNegotiation,
  type NegotiatedProtocol,
  type TransportKind,
} from "./protocol-era.js";
import { QuestionHold } from "./question-hold.js";
import { rootsOffer } from "./roots.js";
import { EarlierProcesses } from "./earlier-processes.js";
import { EMPTY_CATALOG, ServerCatalog } from "./server-catalog.js";
import { exitSentence, serverExitReport, type ServerExitReport } from "./server-exit.js";
import { formatLogEntry, logDataText, ServerLog, type ServerLogEntry } from "./server-log.js";
import { connectSigningIn, withStepUp } from "./sign-in-loop.js";
import { StdioProcessTransport } from "./stdio-process-transport.js";
import { TappedTransport } from "./tapped-transport.js";
import { ToolListRefresh } from "./tool-list-refresh.js";
import { listToolPages } from "./tool-listing.js";
import { isHttpNotFound } from "./remote-transports.js";
import { ServerRecovery } from "./server-recovery.js";
import {
  redactedEvent,
  ServerSubscriptions,
  subscriptionProblem,
  type SubscriptionEvent,
} from "./subscriptions.js";
import { ResponseCache, type CacheHit } from "./response-cache.js";
import { callSurvivingLoss } from "./call-after-loss.js";
import { callToolWithin } from "./tool-call.js";
import { classifyRequestError, lostConnection, ToolCallError } from "./tool-call-error.js";
import { serverTransports, type TransportFactory } from "./transport-factory.js";
import { xMcpHeaderProblem } from "./x-mcp-header.js";
import { MalformedTools } from "./malformed-tools.js";
import type {
  CallOptions,
  CallToolResult,
  RequestMeta,
  ServerSnapshot,
  ServerStatus,
  ServerTool,
  WireFrame,
} from "./types.js";

export interface ServerConnectionOptions {
  parentEnv: NodeJS.ProcessEnv;
  /**
   * Removes secrets from everything the server wrote (its stderr and stdout noise, its log
   * messages, error texts that quote them) before anyone can read it: shown, printed or traced.
   */
  redact: (text: string) => string;
  onChange: () => void;
  onWire?: (frame: WireFrame) => void;
  /** Each log message as it arrives (already kept in the connection's log), redacted. */
  onLog?: (entry: ServerLogEntry) => void;
  /** Each line a stdio server writes to stderr as it arrives, redacted and cut to 2,000 characters. */
  onStderr?: (server: string, line: string) => void;
  /** Each line a stdio server writes to stdout that is not JSON-RPC, as it arrives, redacted and cut alike. */
  onStdoutNoise?: (server: string, line: string) => void;
  /** `_meta` for each request mcpterm sends (trace context, when traces are exported). */
  requestMeta?: RequestMeta;
  /**
   * Whether a stdio server whose process exited while connected is started again (ServerRecovery;
   * a lost HTTP session is always replaced). A session's yes; a developer command's no: the crash
   * (its exit code and error line) is its answer, and it ends.
   */
  restartCrashed?: boolean;
  /** Answers the server's sampling and elicitation requests; without it they are declined. */
  requests?: ServerRequestHandlers;
  /** The roots the server is offered when it asks (roots/list). */
  roots?: () => Root[];
  /** Signing in to remote servers that need it (OAuth); without it a 401 is reported as it is. */
  oauth?: OAuthOptions;
  /** Grace periods when stopping a stdio server (tests shorten them). */
  shutdownGraceMs?: number;
  /** Makes the transports; by default the entry's command or URL. Tests may pass their own. */
  transports?: TransportFactory;
  /** Subscription streams opened and closed, and updates to subscribed resources (see subscriptions.ts). */
  onSubscription?: (event: SubscriptionEvent) => void;
  /** A list page or read answered from what the server said may be kept (see response-cache.ts). */
  onCacheHit?: (hit: CacheHit) => void;
}

/** How much of one log message is read: what the log keeps (2,000) and a margin to redact in. */
const LOG_TEXT_READ = 6000;
/** A burst of list_changed notifications is answered with one listing, this long after the last. */
const TOOL_REFRESH_DEBOUNCE_MS = 50;
/** Log messages a 2026 server sends only for requests that ask for them (no logging/setLevel). */
const LOG_LEVEL_META = "io.modelcontextprotocol/logLevel";
/**
 * For the SDK client, which would compile a tool's outputSchema to check its results: one schema
 * ajv cannot compile would fail the call. mcpterm checks results itself (output-schema.ts).
 */
const UNCHECKED_OUTPUT: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/**
 * One MCP server: its transport, client, status and tools. It never throws from `connect`: a
 * server that cannot start is marked failed with the reason, and the others carry on. What the
 * server wrote leaves here redacted.
 */
export class ServerConnection {
  private readonly log = new ServerLog(500);
  /** What the processes before a restart wrote, for /mcp logs. */
  private readonly earlier = new EarlierProcesses();
  /** Sampling and elicitation requests of this server waiting on the person now. */
  private readonly questions = new QuestionHold();
  private status: ServerStatus;
  private error: string | undefined;
  private client: Client | undefined;
  private stdio: StdioProcessTransport | undefined;
  private tapped: TappedTransport | undefined;
  private tools: ServerTool[] = [];
  private refusedTools: ServerSnapshot["refusedTools"] = [];
  private malformedTools = new MalformedTools();
  private serverInfo: ServerSnapshot["serverInfo"];
  private protocol: NegotiatedProtocol | undefined;
  private initializeMs: number | undefined;
  private connecting: Promise<void> | undefined;
  private closing = false;
  private toolRefresh = new ToolListRefresh();
  private refreshTimer: NodeJS.Timeout | undefined;
  private catalog: ServerCatalog | undefined;
  private catalogLoaded: Promise<void> = Promise.resolve();
  private instructions: string | undefined;
  /** The level asked for with setLogLevel: a 2026 server is told it in every request. */
  private logLevel: LoggingLevel | undefined;
  /** "sse" once a Streamable HTTP url fell back to the legacy transport. */
  private transportUsed: ServerSnapshot["transport"];
  /** OAuth, for a remote server that may ask for it. */
  private readonly auth: ServerAuth | undefined;
  private readonly transports: TransportFactory;
  /** Brings the server back when it is lost while connected (see ServerRecovery). */
  private readonly recovery = new ServerRecovery(() => this.reconnectOnce());
  /** The stop that follows a loss, which a reconnection waits for. */
  private stopping: Promise<void> = Promise.resolve();
  /** How the server was last lost (its exit and stderr), for the calls that met it. */
  private lostReason: string | undefined;
  /** How the lost process ended, in a sentence, when it was a stdio server that exited. */
  private lostExit: string | undefined;
  /** 2026 listen streams and resource subscriptions, kept across reconnections. */
  private readonly subscriptions: ServerSubscriptions;
  /** Results kept as long as the server said (ttlMs), across reconnections of this entry. */
  private readonly cache: ResponseCache;

  constructor(
    readonly config: ServerConfig,
    private readonly options: ServerConnectionOptions,
  ) {
    this.subscriptions = new ServerSubscriptions({
      server: config.name,
      timeoutMs: config.timeoutMs,
      emit: (event) => {
        const problem = subscriptionProblem(event);
        if (problem) this.note("warning", problem);
        options.onSubscription?.(redactedEvent(event, options.redact));
      },
    });
    this.cache = new ResponseCache(config.name, options.onCacheHit);
    this.status = config.disabled ? "disabled" : "connecting";
    this.transportUsed = config.transport;
    this.auth = ServerAuth.for(config, options.oauth);
    this.transports = options.transports ?? serverTransports(config, this.auth, options);
  }

  get name(): string {
    return this.config.name;
  }

  /** Connects once; later calls return the same attempt. Resolves when the attempt settled either way. */
  connect(): Promise<void> {
    this.connecting ??= this.attemptConnect();
    return this.connecting;
  }

  /** Stops the server if it runs and connects it again, refreshing its tools. */
  async restart(): Promise<void> {
    await this.stop();
    // Asked for by a person (or a lost session): nothing kept from before is trusted.
    this.cache.clear();
    const stopped = this.stdio;
    // Kept redacted, as the running process's lines are read.
    if (stopped) this.earlier.keep({ stderr: this.stderrLines(), stdout: this.stdoutNoise() }, new Date());
    this.note("info", stopped ? "restarted; the new process's messages follow" : "reconnected");
    this.closing = false;
    this.connecting = undefined;
    this.setStatus("connecting", undefined);
    await this.connect();
  }

  /** Whether this server may sign in with OAuth (a remote server without its own Authorization header). */
  get signsIn(): boolean {
    return this.auth !== undefined;
  }

  /**
   * Forgets the server's sign-in (tokens, registered client) and disconnects it, so nothing
   * more is sent with those tokens. False when the server does not sign in.
   */
  async signOut(): Promise<boolean> {
    const auth = this.auth;
    if (!auth) return false;
    auth.forget();
    this.cache.clear();
    await this.stop();
    this.closing = false;
    this.connecting = undefined;
    this.setStatus(
      "failed",
      `signed out; /mcp login ${this.name} (or \`mcpterm auth login ${this.name}\`) signs in again`,
    );
    return true;
  }

  async close(): Promise<void> {
    this.recovery.stop();
    await this.stop();
    if (this.status !== "disabled") this.setStatus("closed", this.error);
  }

  snapshot(): ServerSnapshot {
    const connected = this.status === "connected";
    return {
      name: this.name,
      status: this.status,
      transport: this.transportUsed,
      pid: this.stdio?.exit ? undefined : this.stdio?.pid,
      // A `${VAR}` in a URL was expanded; a secret in it is not for display.
      url: this.config.url === undefined ? undefined : this.options.redact(this.config.url),
      error: this.error,
      tools: connected ? this.tools : [],
      refusedTools: connected ? this.refusedTools : [],
      serverInfo: this.serverInfo,
      era: this.protocol?.era,
      protocolVersion: this.protocol?.version ?? this.tapped?.protocolVersion,
      instructions: connected ? this.instructions : undefined,
      initializeMs: this.initializeMs,
      catalog: connected ? (this.catalog?.snapshot() ?? EMPTY_CATALOG) : EMPTY_CATALOG,
      capabilities: connected ? this.client?.getServerCapabilities() : undefined,
      cacheHints: this.cache.hints(),
    };
  }

  /** What the server wrote to stderr, oldest first (bounded), redacted. */
  stderrLines(): string[] {
    return (this.stdio?.stderr.snapshot() ?? []).map(this.options.redact);
  }

  /** How a stdio server's process ended, with the stderr lines that matter, once it has. */
  exitReport(): ServerExitReport | undefined {
    const exit = this.stdio?.exit;
    return exit ? serverExitReport(exit, this.stderrLines()) : undefined;
  }

  /** Lines a stdio server wrote to stdout that were not JSON-RPC, redacted. */
  stdoutNoise(): string[] {
    return (this.stdio?.stdoutNoise.snapshot() ?? []).map(this.options.redact);
  }

  /**
   * For /mcp logs: stderr and stray stdout of every process since mcpterm started, each restart
   * marked. The methods above give the running process's alone (lint, error texts).
   */
  linesSinceStart(): { stderr: string[]; stdout: string[] } {
    return {
      stderr: this.earlier.withStderr(this.stderrLines()),
      stdout: this.earlier.withStdout(this.stdoutNoise()),
    };
  }

  /** The server's logging notifications, oldest first (bounded), redacted, one line each with time and level. */
  logMessages(): string[] {
    return this.log.snapshot().map(formatLogEntry);
  }

  logEntries(): ServerLogEntry[] {
    return this.log.snapshot();
  }

  /** Resolves once the resources, templates and prompts of the current connection were listed. */
  catalogSettled(): Promise<void> {
    return this.catalogLoaded;
  }

  /**
   * Asks the server for log messages from `level` up: `logging/setLevel` on a 2025 server; a 2026
   * server has no such request, so the level goes with every request from now on, and the
   * server sends the messages of that request alongside its answer.
   */
  async setLogLevel(level: LoggingLevel): Promise<void> {
    await this.inSession(async (client) => {
      if (!client.getServerCapabilities()?.logging)
        throw new ToolCallError("invalid_args", `server "${this.name}" does not offer logging`);
      if (this.protocol?.era === "modern") return;
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- 2025 servers still take logging/setLevel.
      await client.setLoggingLevel(level, { timeout: this.config.timeoutMs });
    });
    this.logLevel = level;
    this.note("info", `log level set to ${level}`);
  }

  /** Renders one of the server's prompts with `args` (prompts/get). */
  getPrompt(name: string, args: Record<string, string>, options: CallOptions = {}): Promise<GetPromptResult> {
    return this.inSession((client) =>
      this.classified(
        () => client.getPrompt({ name, arguments: args, ...this.meta() }, this.requestOptions(options)),
        options,
        "the prompt",
      ),
    );
  }

  /** Suggestions for one argument of a prompt or resource template (completion/complete). */
  complete(params: CompleteRequest["params"], options: CallOptions = {}): Promise<CompleteResult> {
    return this.inSession(async (client) => {
      if (!client.getServerCapabilities()?.completions) return { completion: { values: [] } };
      return this.classified(
        () => client.complete(params, this.requestOptions(options)),
        options,
        "the completion",
      );
    });
  }

  /**
   * Calls a tool. When the server is lost during the call (its process exited, the connection
   * closed), whether it ran is unknown: a call the resend rule finds safe (options.resendSafe)
   * waits for the server to come back and is sent once more; any other fails with "the result
   * is unknown", and is never sent again.
   */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    return callSurvivingLoss(() => this.callToolOnce(tool, args, options), {
      server: this.name,
      transport: this.config.transport,
      resendSafe: options.resendSafe === true,
      recovers: () => this.restarts(),
      signal: options.signal,
      whenBack: (signal) => this.recovery.whenBack(signal),
      lostReason: () => this.lostReason,
      lostExit: () => this.lostExit,
      failedReason: () => this.error,
      note: (text) => this.note("notice", `${tool} was ${text}`),
    });
  }

  private callToolOnce(
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallToolResult> {
    return this.inSession((client) => {
      this.refuseTaskOnly(tool);
      return callToolWithin(
        {
          client,
          server: this.name,
          timeoutMs: this.config.timeoutMs,
          maxCallMs: this.config.maxCallMs,
          questions: this.questions,
          definition: (name) => this.tools.find((listed) => listed.definition.name === name)?.definition,
          relist: () => this.refreshTools(client, this.toolRefresh.announce()),
          passThrough: (error) => this.sessionExpired(error),
        },
        tool,
        args,
        options,
        this.meta(),
      );
    }, options.resendSafe === true);
  }

  /**
   * Reads one resource; failures are classified like tool calls. A 2026 server's answer may be
   * kept for as long as it said (ttlMs, cacheScope): reading it again within that time is
   * answered from mcpterm's cache (ResponseCache), unless `fresh` asks for the server.
   */
  async readResource(
    uri: string,
    options: CallOptions & { fresh?: boolean } = {},
  ): Promise<ReadResourceResult> {
    // A read that had to ask the person (input_required) answered a retry: never kept (SEP-2549).
    const asked = this.questions.asked;
    return this.inSession((client) =>
      this.classified(
        () =>
          this.cache.through(
            "resources/read",
            uri,
            () =>
              client.readResource(
                { uri, ...this.meta() },
                { ...this.requestOptions(options), cacheMode: "bypass" },
              ),
            { fresh: options.fresh, keepable: () => this.questions.asked === asked },
          ),
        options,
        "the read",
      ),
    );
  }

  /**
   * Subscribes to a resource (2026: a listen stream of its own; 2025: resources/subscribe); its
   * updates arrive as `onSubscription` events, also after the server was restarted.
   */
  subscribeResource(uri: string): Promise<void> {
    return this.inSession(() => this.subscriptions.subscribe(uri));
  }

  /** Ends a subscription; false when there was none. */
  unsubscribeResource(uri: string): Promise<boolean> {
    return this.subscriptions.unsubscribe(uri);
  }

  subscribedResources(): string[] {
    return this.subscriptions.subscribed();
  }

  private requestOptions(options: CallOptions): { signal?: AbortSignal; timeout: number } {
    return {
      ...(options.signal ? { signal: options.signal } : {}),
      timeout: options.timeoutMs ?? this.config.timeoutMs,
    };
  }

  /** The `_meta` of a 2026 request: the log level asked for, if one was. */
  private meta(): { _meta?: Record<string, unknown> } {
    if (this.protocol?.era !== "modern" || this.logLevel === undefined) return {};
    return { _meta: { [LOG_LEVEL_META]: this.logLevel } };
  }

  /** Runs one request other than a tool call, its failure classified like a tool call's. */
  private async classified<T>(request: () => Promise<T>, options: CallOptions, what: string): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (options.signal?.aborted)
        throw new ToolCallError("cancelled", `${what} was cancelled`, { cause: error });
      if (this.sessionExpired(error)) throw error;
      throw classifyRequestError(error, {
        server: this.name,
        timeoutMs: options.timeoutMs ?? this.config.timeoutMs,
      });
    }
  }

  /** Runs a request on the connected client; what it throws leaves redacted and classified. */
  private async inSession<T>(request: (client: Client) => Promise<T>, resendSafe = true): Promise<T> {
    try {
      return await this.renewingSession(request, resendSafe);
    } catch (error) {
      // Error texts quote the server (its messages, its stderr): they leave here redacted.
      const failure =
        error instanceof ToolCallError
          ? error
          : classifyRequestError(error, { server: this.name, timeoutMs: 0 });
      // A request the process took down with it: say how it ended and why, not "connection lost".
      const exit = lostConnection(error) ? this.exitReport() : undefined;
      const message = exit ? exitSentence(this.name, exit) : failure.message;
      throw new ToolCallError(failure.failure, this.options.redact(message), {
        cause: error,
        retryable: failure.retryable,
        timedOut: failure.timedOut,
        lost: failure.lost,
      });
    }
  }

  /**
   * A 2025 Streamable HTTP server that answers 404 to our session id has forgotten the session
   * (it restarted, or expired it): as its spec asks, a new session is started (a fresh
   * initialize, without the old id). The request is sent once more only when that is safe
   * (`resendSafe`: every request but a tool call reads, and a tool call asks resendIsSafe): the
   * server says it did not handle it, but a server behind a balancer or mid-restart may have.
   */
  private async renewingSession<T>(request: (client: Client) => Promise<T>, resendSafe: boolean): Promise<T> {
    try {
      return await withStepUp(this.auth, () => request(this.connectedClient()));
    } catch (error) {
      if (!this.sessionExpired(error)) throw error;
      this.note(
        "notice",
        "the server no longer knows this session (HTTP 404); starting a new one, as the MCP spec asks",
      );
      await this.restart();
      if (this.status !== "connected" || !this.client) {
        throw new ToolCallError(
          "transient",
          `server "${this.name}" no longer knew its session (HTTP 404), and starting a new one failed: ${this.error ?? "no reason given"}`,
          { cause: error, retryable: false },
        );
      }
      if (!resendSafe)
        throw new ToolCallError(
          "transient",
          unknownResultMessage(this.name, "lost its session (HTTP 404) during the call"),
          { cause: error, retryable: false },
        );
      try {
        return await request(this.client);
      } catch (again) {
        if (!this.sessionExpired(again)) throw again;
        throw new ToolCallError(
          "transient",
          `server "${this.name}" forgot the new session at once (HTTP 404 for its session id twice)`,
          { cause: again, retryable: false },
        );
      }
    }
  }

  /**
   * A 404 to a request that carried a 2025 session id: the server forgot the session. A 2026
   * server has no sessions, and its 404 means the method or endpoint is unknown: starting over
   * would only loop.
   */
  private sessionExpired(error: unknown): boolean {
    return this.protocol?.era === "legacy" && isHttpNotFound(error) && this.tapped?.sessionId !== undefined;
  }

  /**
   * A 404 while connecting, to a request that carried the session id the server had just given:
   * the session is gone, not the endpoint (so no fallback to the SSE transport either).
   */
  private sessionLostOnStart(error: unknown): boolean {
    return isHttpNotFound(error) && this.tapped?.sessionId !== undefined;
  }

  private connectedClient(): Client {
    const client = this.client;
    if (this.status !== "connected" || !client) {
      throw new ToolCallError(
        "transient",
        `server "${this.name}" is ${this.status}${this.error ? ` (${this.error})` : ""}; try /mcp restart ${this.name}`,
      );
    }
    return client;
  }

  /** The spec's rule client.callTool kept: a tool that requires a task must not be called without one. */
  private refuseTaskOnly(tool: string): void {
    const listed = this.tools.find((candidate) => candidate.definition.name === tool);
    if (listed?.definition.execution?.taskSupport === "required")
      throw new ToolCallError(
        "business",
        `${tool} can only run as an MCP task, which mcpterm does not start`,
      );
  }

  private async attemptConnect(): Promise<void> {
    if (this.config.disabled) return;
    if (this.config.problem) {
      this.setStatus("failed", this.config.problem);
      return;
    }
    const control = {
      stop: async () => {
        await this.stop();
        this.closing = false;
      },
      isClosing: () => this.closing,
    };
    let outcome = await connectSigningIn(this.auth, () => this.connectOnce(), control);
    if (outcome.kind === "failed" && this.sessionLostOnStart(outcome.error) && !this.closing) {
      // The server forgot the session it had just given (it restarted right after initialize):
      // as the 2025 spec asks, a new session, without the old id. Once: a second loss is final.
      this.note("notice", "the server forgot its new session at once (HTTP 404); starting another");
      await control.stop();
      outcome = await connectSigningIn(this.auth, () => this.connectOnce(), control);
    }
    if (outcome.kind !== "failed") return;
    const reason = describeConnectFailure(outcome.error, {
      server: this.name,
      auth: this.auth,
      stdio: this.stdio,
      protocol: this.config.protocol ?? "auto",
      typed: this.config.typed === true,
    });
    await this.stop();
    this.setStatus("failed", reason);
  }

  /** One attempt: connect (the revision settled on the way), list the tools. Throws what went wrong. */
  private async connectOnce(): Promise<void> {
    const startedAt = performance.now();
    // Each connection of a server that signs in may be another authorization context.
    if (this.auth) this.cache.dropPrivate();
    const client = await this.openClient();
    this.client = client;
    this.serverInfo = client.getServerVersion();
    this.protocol = negotiatedProtocol(client);
    // One start-up deadline for connecting and the whole tool list together.
    const left = this.config.startupTimeoutMs - (performance.now() - startedAt);
    // Resources and prompts are listed beside the tools, but a session does not wait for them.
    const catalog = new ServerCatalog(
      client,
      this.config.startupTimeoutMs,
      () => this.options.onChange(),
      this.cache,
    );
    this.catalog = catalog;
    this.catalogLoaded = catalog.load();
    this.tools = await this.listTools(client, Math.floor(left));
    const instructions = client.getInstructions();
    this.instructions = instructions === undefined ? undefined : this.options.redact(instructions);
    this.initializeMs = Math.round(performance.now() - startedAt);
    client.onclose = () => this.onConnectionLost();
    if (this.auth) this.auth.scheduleRefresh(this.auth.fetch(fetch));
    this.setStatus("connected", undefined);
    void this.subscriptions.attach(client, this.protocol.era);
  }

  private async openClient(): Promise<Client> {
    const { transport, protocol } = this.config;
    const auth = this.auth;
    if (transport === "stdio") {
      try {
        return await this.connectWith("stdio");
      } catch (error) {
        if (this.closing || !closedOnProbe(error)) throw error;
        await this.stdio?.close();
        return this.connectWith("stdio", { kind: "legacy" });
      }
    }
    if (auth?.shouldRefreshNow()) await auth.refreshNow(auth.fetch(fetch));
    if (transport === "sse") return this.connectWith("sse");
    try {
      return await this.connectWith("http");
    } catch (streamableError) {
      // Servers written before Streamable HTTP only speak the legacy SSE transport (and so only
      // 2025); one that asked for authorization speaks Streamable HTTP (a ServerUnavailableError is mcpterm's
      // own verdict on its sign-in, such as a 401 with no OAuth metadata, which another
      // transport would only repeat, discovery and all), and one pinned to 2026 must not be
      // heard in 2025.
      if (
        this.closing ||
        streamableError instanceof ServerUnavailableError ||
        this.sessionLostOnStart(streamableError) ||
        protocol === MODERN_REVISION ||
        isTimeout(streamableError) ||
        auth?.describe(streamableError) ||
        isAuthError(streamableError)
      )
        throw streamableError;
      try {
        const client = await this.connectWith("sse");
        this.transportUsed = "sse";
        return client;
      } catch {
        throw streamableError;
      }
    }
  }

  private async connectWith(kind: TransportKind, prior?: PriorDiscovery): Promise<Client> {
    const { startupTimeoutMs, protocol } = this.config;
    const transport = this.transports(kind);
    if (transport instanceof StdioProcessTransport) this.stdio = transport;
    const client = new Client(CLIENT_INFO, {
      capabilities: this.capabilities(),
      jsonSchemaValidator: UNCHECKED_OUTPUT,
      versionNegotiation: versionNegotiation(protocol ?? "auto", kind, startupTimeoutMs),
    });
    registerClientHandlers(client, {
      server: this.name,
      requests: this.options.requests ?? declineServerRequests(),
      roots: rootsOffer(this.config).offered ? () => this.options.roots?.() ?? [] : undefined,
      questions: this.questions,
      toolsChanged: () => {
        const change = this.toolRefresh.announce();
        clearTimeout(this.refreshTimer);
        this.refreshTimer = setTimeout(
          () => void this.refreshTools(client, change),
          TOOL_REFRESH_DEBOUNCE_MS,
        );
      },
      resourcesChanged: () => {
        this.cache.invalidate("resources/list");
        this.cache.invalidate("resources/templates/list");
        void this.catalog?.refresh("resources");
      },
      promptsChanged: () => {
        this.cache.invalidate("prompts/list");
        void this.catalog?.refresh("prompts");
      },
      resourceUpdated: (uri) => {
        this.cache.invalidate("resources/read", uri);
        this.subscriptions.updated(uri);
      },
      log: (params) => this.keepLog(params),
    });
    const privateAnswers = new PrivateAnswers();
    this.malformedTools = new MalformedTools();
    const tapped = TappedTransport.wrap(
      transport,
      (direction, message) => {
        const { onWire } = this.options;
        if (onWire)
          onWire({
            server: this.name,
            direction,
            at: Date.now(),
            message: privateAnswers.forTrace(direction, message),
          });
      },
      [this.malformedTools],
      this.requestMetaHook(),
    );
    this.client = client;
    this.tapped = tapped;
    await withDeadline(
      client.connect(tapped, { timeout: startupTimeoutMs, ...(prior ? { prior } : {}) }),
      startupTimeoutMs,
      `did not finish connecting (server/discover or initialize) within ${startupTimeoutMs} ms`,
    );
    return client;
  }

  /** The session's `_meta` hook (trace context) bound to this server, or none. */
  private requestMetaHook(): ((request: JSONRPCRequest) => Record<string, string> | undefined) | undefined {
    const { requestMeta } = this.options;
    if (requestMeta === undefined) return undefined;
    return (request) =>
      requestMeta({ server: this.name, method: request.method, id: request.id, params: request.params });
  }

  private keepLog({ level, logger, data }: LogMessageParams): void {
    const entry = this.log.push({
      server: this.name,
      at: Date.now(),
      level,
      // Cut (with a margin for a secret at the edge) before redacting: a log line is kept at
      // 2,000 characters, and a 10 MB one is not redacted whole to keep that much of it.
      logger: logger === undefined ? undefined : this.options.redact(logger.slice(0, 200)),
      text: this.options.redact(logDataText(data).slice(0, LOG_TEXT_READ)),
    });
    this.options.onLog?.(entry);
  }

  /** What this server is told mcpterm can do: everything, but roots only where they are offered. */
  private capabilities(): ClientCapabilities {
    const offer = rootsOffer(this.config);
    if (offer.offered) return CLIENT_CAPABILITIES;
    this.note("info", `not offered roots: ${offer.reason}`);
    const { roots: _roots, ...rest } = CLIENT_CAPABILITIES;
    return rest;
  }

  /**
   * Tells a 2025 server the roots changed (notifications/roots/list_changed), if it is connected.
   * A 2026 server asks for the roots with each request that needs them: there is nothing to tell.
   */
  async rootsChanged(): Promise<void> {
    if (this.status !== "connected" || !this.client || !rootsOffer(this.config).offered) return;
    if (this.protocol?.era === "modern") return;
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- 2025 servers are still told the roots changed.
    await this.client.sendRootsListChanged().catch((error: unknown) => {
      this.note("warning", `could not tell the server that the roots changed: ${errorMessage(error)}`);
    });
  }

  /** One of mcpterm's own notes about this server, kept with its log messages. */
  private note(level: LoggingLevel, text: string): void {
    const entry = this.log.push({
      server: this.name,
      at: Date.now(),
      level,
      logger: "mcpterm",
      text: this.options.redact(text),
    });
    if (level !== "info" && level !== "debug") this.options.onLog?.(entry);
  }

  private async listTools(client: Client, deadlineMs: number): Promise<ServerTool[]> {
    if (!client.getServerCapabilities()?.tools) return [];
    return this.filterTools(await listToolPages(client, deadlineMs, this.cache));
  }

  /** Fetches the list after announcement `change`; a list that cannot be fetched withdraws the tools. */
  private async refreshTools(client: Client, change: number): Promise<void> {
    if (this.closing) return;
    // Listed again because it changed (or a call found it stale): nothing kept of it holds.
    this.cache.invalidate("tools/list");
    try {
      this.tools = this.filterTools(await listToolPages(client, this.config.startupTimeoutMs, this.cache));
    } catch (error) {
      this.tools = [];
      this.note(
        "warning",
        `the server said its tools changed but could not list them (${errorMessage(error)}); its tools are withdrawn until it does`,
      );
    } finally {
      this.toolRefresh.answered(change);
      this.options.onChange();
    }
  }

  /**
   * Resolves true once no announced tool change is waiting to be listed, false if `ms` pass
   * first; callers then must not trust the definitions they hold.
   */
  toolsSettled(ms: number): Promise<boolean> {
    return this.toolRefresh.settled(ms);
  }

  private filterTools(tools: Tool[]): ServerTool[] {
    const { includeTools, excludeTools } = this.config;
    const chosen = tools
      .filter((tool) => includeTools.length === 0 || includeTools.includes(tool.name))
      .filter((tool) => !excludeTools.includes(tool.name));
    // SEP-2243: over 2026 HTTP a tool whose x-mcp-header declarations break the rules cannot be
    // called as it asks, and must not be listed; one such tool never costs the others.
    const headersSent = this.protocol?.era === "modern" && this.transportUsed === "http";
    const badHeaders = headersSent
      ? chosen.flatMap((tool) => {
          const reason = xMcpHeaderProblem(tool.inputSchema);
          return reason === undefined ? [] : [{ name: tool.name, reason: `${reason} (SEP-2243)` }];
        })
      : [];
    this.refusedTools = [...this.malformedTools.take(), ...badHeaders];
    for (const refused of this.refusedTools)
      this.note("warning", `tool ${refused.name} is not listed: ${refused.reason}`);
    const refused = new Set(badHeaders.map((tool) => tool.name));
    return chosen
      .filter((tool) => !refused.has(tool.name))
      .map((definition) => ({ server: this.name, definition }));
  }

  /**
   * The server went away while connected (its process exited, the connection closed): it is
   * connected again with backoff (ServerRecovery), its tools listed afresh; until then its tools
   * are not offered. A server lost over and over is left failed.
   */
  private onConnectionLost(): void {
    if (this.closing || this.status !== "connected") return;
    const lost = `connection lost: ${describeExit(this.stdio) ?? "the server closed the connection"}`;
    this.lostReason = this.options.redact(lost);
    const exit = this.exitReport();
    this.lostExit = exit ? exitSentence(this.name, exit) : undefined;
    this.stopping = this.stop();
    if (!this.restarts()) {
      this.setStatus("failed", lost);
      return;
    }
    if (this.recovery.start()) {
      this.setStatus("connecting", `${lost}; connecting again`);
      this.note("warning", `${lost}; connecting again`);
    } else {
      this.setStatus(
        "failed",
        `${lost}; it was lost too often to start it again (/mcp restart ${this.name})`,
      );
    }
  }

  /** Whether a loss is repaired: always for a remote server's session, for a local process unless told not to. */
  private restarts(): boolean {
    return this.options.restartCrashed !== false || this.config.transport !== "stdio";
  }

  /** One attempt of the recovery: a whole new connection. True once connected. */
  private async reconnectOnce(): Promise<boolean> {
    await this.stopping;
    // close() may have run meanwhile: a server started now would outlive mcpterm.
    if (this.recovery.isStopped()) return false;
    const lost = this.stdio;
    // What the lost process wrote stays readable in /mcp logs (redacted, as the running one's).
    if (lost?.exit) {
      this.earlier.keep({ stderr: this.stderrLines(), stdout: this.stdoutNoise() }, new Date());
      this.stdio = undefined;
    }
    this.closing = false;
    this.connecting = undefined;
    this.setStatus("connecting", this.error);
    await this.connect();
    if (this.recovery.isStopped()) {
      await this.stop();
      this.setStatus("closed", this.error);
      return false;
    }
    if (this.status !== "connected") return false;
    this.note("notice", "connected again; its tools were listed again");
    return true;
  }

  private async stop(): Promise<void> {
    this.closing = true;
    this.auth?.close();
    // A stopped server has no tools to wait for: nobody waits on a change it announced.
    clearTimeout(this.refreshTimer);
    this.toolRefresh.answered();
    const client = this.client;
    const stdio = this.stdio;
    await this.subscriptions.detach();
    if (client) {
      client.onclose = undefined;
      await client.close().catch(() => undefined);
    }
    // The client closes its transport, but a transport whose start failed was never attached.
    await stdio?.close();
  }

  private setStatus(status: ServerStatus, error: string | undefined): void {
    this.status = status;
    // Failure texts quote the server's stderr and exit; they are shown and traced as they are.
    this.error = error === undefined ? undefined : this.options.redact(error);
    this.options.onChange();
  }
}
