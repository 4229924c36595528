import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  CallToolResultSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type ClientCapabilities,
  type CompleteRequest,
  type CompleteResult,
  type GetPromptResult,
  type LoggingLevel,
  type ReadResourceResult,
  type Root,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { ServerConfig } from "../config/config-types.js";
import { serverEnvironment } from "../config/server-environment.js";
import { errorMessage } from "../errors.js";
import { ServerAuth, type OAuthOptions } from "../oauth/server-auth.js";
import { CLIENT_INFO } from "../version.js";
import { declineServerRequests } from "../person/decline-server-requests.js";
import type { ServerRequestHandlers } from "../person/server-request-handlers.js";
import { CLIENT_CAPABILITIES } from "./client-capabilities.js";
import { PrivateAnswers } from "./private-answers.js";
import { rootsOffer } from "./roots.js";
import { SilenceTimer } from "./silence-timer.js";
import { EarlierProcesses } from "./earlier-processes.js";
import { EMPTY_CATALOG, ServerCatalog } from "./server-catalog.js";
import { formatLogEntry, logDataText, ServerLog, type ServerLogEntry } from "./server-log.js";
import { StdioProcessTransport } from "./stdio-process-transport.js";
import { TappedTransport } from "./tapped-transport.js";
import { ToolListRefresh } from "./tool-list-refresh.js";
import { listToolPages } from "./tool-listing.js";
import { isExpiredSession, legacySseTransport, streamableHttpTransport } from "./remote-transports.js";
import { classifyRequestError, ToolCallError } from "./tool-call-error.js";
import type {
  CallOptions,
  CallToolResult,
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
  /** Answers the server's sampling and elicitation requests; without it they are declined. */
  requests?: ServerRequestHandlers;
  /** The roots the server is offered when it asks (roots/list). */
  roots?: () => Root[];
  /** Signing in to remote servers that need it (OAuth); without it a 401 is reported as it is. */
  oauth?: OAuthOptions;
  /** Grace periods when stopping a stdio server (tests shorten them). */
  shutdownGraceMs?: number;
}

const STDERR_TAIL_IN_ERRORS = 5;
/** How much of one log message is read: what the log keeps (2,000) and a margin to redact in. */
const LOG_TEXT_READ = 6000;
/** A burst of list_changed notifications is answered with one listing, this long after the last. */
const TOOL_REFRESH_DEBOUNCE_MS = 50;
/** The abort reason of a call stopped by its hard limit (maxCallMs). */
const OVER_CALL_LIMIT = Symbol("over maxCallMs");
/** The abort reason of a call that said nothing for its timeoutMs. */
const SILENT = Symbol("silent for timeoutMs");
/** The SDK's per-request timeout sits this far past the hard limit, so mcpterm's limits decide. */
const SDK_TIMEOUT_SLACK_MS = 1000;
/** Sign-ins one connection attempt may ask for: the first, and one step-up for more scopes. */
const MAX_SIGN_INS = 2;
/**
 * For the SDK client, which compiles every outputSchema as tools are listed: one schema ajv cannot
 * compile would fail the whole listing, and so the server. mcpterm checks results itself.
 */
const UNCHECKED_OUTPUT: jsonSchemaValidator = {
  // Its validators are never consulted (callOnce does not use client.callTool): nothing is checked.
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
  private openQuestions = 0;
  private readonly questionListeners = new Set<(open: boolean) => void>();
  private status: ServerStatus;
  private error: string | undefined;
  private client: Client | undefined;
  private stdio: StdioProcessTransport | undefined;
  private tapped: TappedTransport | undefined;
  private tools: ServerTool[] = [];
  private serverInfo: ServerSnapshot["serverInfo"];
  private protocolVersion: string | undefined;
  private initializeMs: number | undefined;
  private connecting: Promise<void> | undefined;
  private closing = false;
  private toolRefresh = new ToolListRefresh();
  private refreshTimer: NodeJS.Timeout | undefined;
  private catalog: ServerCatalog | undefined;
  private catalogLoaded: Promise<void> = Promise.resolve();
  private instructions: string | undefined;
  /** "sse" once a Streamable HTTP url fell back to the legacy transport. */
  private transportUsed: ServerSnapshot["transport"];
  /** OAuth, for a remote server that may ask for it. */
  private readonly auth: ServerAuth | undefined;

  constructor(
    readonly config: ServerConfig,
    private readonly options: ServerConnectionOptions,
  ) {
    this.status = config.disabled ? "disabled" : "connecting";
    this.transportUsed = config.transport;
    this.auth = ServerAuth.for(config, options.oauth);
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
    await this.stop();
    if (this.status !== "disabled") this.setStatus("closed", this.error);
  }

  snapshot(): ServerSnapshot {
    return {
      name: this.name,
      status: this.status,
      transport: this.transportUsed,
      pid: this.stdio?.exit ? undefined : this.stdio?.pid,
      // A `${VAR}` in a URL was expanded; a secret in it is not for display.
      url: this.config.url === undefined ? undefined : this.options.redact(this.config.url),
      error: this.error,
      tools: this.status === "connected" ? this.tools : [],
      serverInfo: this.serverInfo,
      protocolVersion: this.protocolVersion,
      instructions: this.status === "connected" ? this.instructions : undefined,
      initializeMs: this.initializeMs,
      catalog: this.status === "connected" ? (this.catalog?.snapshot() ?? EMPTY_CATALOG) : EMPTY_CATALOG,
      capabilities: this.status === "connected" ? this.client?.getServerCapabilities() : undefined,
    };
  }

  /** What the server wrote to stderr, oldest first (bounded), redacted. */
  stderrLines(): string[] {
    return (this.stdio?.stderr.snapshot() ?? []).map(this.options.redact);
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

  /** Asks the server to send log messages from `level` up (logging/setLevel). */
  async setLogLevel(level: LoggingLevel): Promise<void> {
    await this.inSession(async (client) => {
      if (!client.getServerCapabilities()?.logging)
        throw new ToolCallError("invalid_args", `server "${this.name}" does not offer logging`);
      await client.setLoggingLevel(level, { timeout: this.config.timeoutMs });
    });
    this.note("info", `log level set to ${level}`);
  }

  /** Renders one of the server's prompts with `args` (prompts/get). */
  getPrompt(name: string, args: Record<string, string>, options: CallOptions = {}): Promise<GetPromptResult> {
    return this.inSession((client) =>
      this.classified(
        () => client.getPrompt({ name, arguments: args }, this.requestOptions(options)),
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

  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    return this.inSession((client) => this.callOnce(client, tool, args, options));
  }

  /** Reads one resource; failures are classified like tool calls. */
  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return this.inSession((client) =>
      this.classified(() => client.readResource({ uri }, this.requestOptions(options)), options, "the read"),
    );
  }

  private requestOptions(options: CallOptions): { signal?: AbortSignal; timeout: number } {
    return {
      ...(options.signal ? { signal: options.signal } : {}),
      timeout: options.timeoutMs ?? this.config.timeoutMs,
    };
  }

  /** Runs one request other than a tool call, its failure classified like a tool call's. */
  private async classified<T>(request: () => Promise<T>, options: CallOptions, what: string): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (options.signal?.aborted)
        throw new ToolCallError("cancelled", `${what} was cancelled`, { cause: error });
      if (isExpiredSession(error)) throw error;
      throw classifyRequestError(error, {
        server: this.name,
        timeoutMs: options.timeoutMs ?? this.config.timeoutMs,
      });
    }
  }

  /**
   * Runs a request on the connected client. A Streamable HTTP server that answers 404 to our
   * session id has forgotten the session: as the MCP spec asks, a new session is started (a fresh
   * initialize, without the old id) and the request sent once more. The server never handled the
   * first one, so sending it again is safe whatever the tool does.
   */
  private async inSession<T>(request: (client: Client) => Promise<T>): Promise<T> {
    try {
      return await this.renewingSession(request);
    } catch (error) {
      // Error texts quote the server (its messages, its stderr): they leave here redacted.
      const failure =
        error instanceof ToolCallError
          ? error
          : classifyRequestError(error, { server: this.name, timeoutMs: 0 });
      throw new ToolCallError(failure.failure, this.options.redact(failure.message), {
        cause: error,
        retryable: failure.retryable,
        timedOut: failure.timedOut,
      });
    }
  }

  private async renewingSession<T>(request: (client: Client) => Promise<T>): Promise<T> {
    try {
      return await request(this.connectedClient());
    } catch (error) {
      // The server wants more scopes for this request (403 insufficient_scope): sign in for
      // them and send it once more; a second refusal is final (the SDK stops re-asking).
      if (this.auth?.needsSignIn(error) && this.client) {
        await this.auth.signIn(this.auth.fetch(fetch));
        return await request(this.client);
      }
      if (!isExpiredSession(error)) throw error;
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
      try {
        return await request(this.client);
      } catch (again) {
        if (!isExpiredSession(again)) throw again;
        throw new ToolCallError(
          "transient",
          `server "${this.name}" forgot the new session at once (HTTP 404 for its session id twice)`,
          { cause: again, retryable: false },
        );
      }
    }
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

  private async callOnce(
    client: Client,
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallToolResult> {
    const timeoutMs = options.timeoutMs ?? this.config.timeoutMs;
    // Progress restarts the silence limit, and a question the server put to the person holds it;
    // the hard limit does not move. Aborting (rather than the SDK's own timeouts) makes the SDK
    // send notifications/cancelled, so the server stops too.
    const maxCallMs = Math.max(this.config.maxCallMs, timeoutMs);
    const call = new AbortController();
    const timer = setTimeout(() => call.abort(OVER_CALL_LIMIT), maxCallMs);
    const silence = new SilenceTimer(timeoutMs, () => call.abort(SILENT));
    const unhold = this.onQuestionsOpen((open) => silence.hold(open));
    silence.hold(this.openQuestions > 0);
    // Linked by hand and unlinked below, so no listener on the caller's signal outlives the call.
    const onCallerAbort = (): void => call.abort();
    options.signal?.addEventListener("abort", onCallerAbort, { once: true });
    if (options.signal?.aborted) call.abort();
    const { signal } = call;
    try {
      const { onProgress } = options;
      this.refuseTaskOnly(tool);
      // A plain request, not client.callTool: that throws a result away when its structuredContent
      // breaks the outputSchema, though the tool ran; mcpterm keeps it and flags it (output-schema.ts).
      const request = { method: "tools/call" as const, params: { name: tool, arguments: args } };
      return await client.request(request, CallToolResultSchema, {
        signal,
        // The SDK's own timeout never fires first: the silence limit and the hard limit decide.
        timeout: maxCallMs + SDK_TIMEOUT_SLACK_MS,
        ...(onProgress
          ? {
              onprogress: (progress: Parameters<typeof onProgress>[0]) => {
                silence.restart();
                onProgress(progress);
              },
            }
          : {}),
      });
    } catch (error) {
      if (options.signal?.aborted)
        throw new ToolCallError("cancelled", "the call was cancelled", { cause: error });
      if (call.signal.reason === SILENT) {
        throw new ToolCallError("transient", `server "${this.name}" did not answer within ${timeoutMs} ms`, {
          cause: error,
          timedOut: true,
        });
      }
      if (call.signal.reason === OVER_CALL_LIMIT) {
        throw new ToolCallError(
          "transient",
          `stopped after ${maxCallMs} ms, the most one call to server "${this.name}" may take (maxCallMs in its config), though it kept reporting progress`,
          { cause: error, retryable: false, timedOut: true },
        );
      }
      if (isExpiredSession(error)) throw error;
      throw classifyRequestError(error, { server: this.name, timeoutMs });
    } finally {
      clearTimeout(timer);
      silence.stop();
      unhold();
      options.signal?.removeEventListener("abort", onCallerAbort);
    }
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
    for (let signIns = 0; ; signIns++) {
      let failure: unknown;
      try {
        await this.connectOnce();
        return;
      } catch (error) {
        failure = error;
      }
      // The server needs a sign-in (or more scopes, while listing): with a person at hand, sign
      // in and connect once more with the tokens. The start-up deadline covers each attempt,
      // not the time the person takes in the browser.
      if (this.auth?.needsSignIn(failure) && signIns < MAX_SIGN_INS && !this.closing) {
        const signedIn = await this.signInAfresh(this.auth);
        if (signedIn === true) continue;
        if (signedIn === "closing") return;
        failure = signedIn;
      }
      const reason = this.describeFailure(failure);
      await this.stop();
      this.setStatus("failed", reason);
      return;
    }
  }

  /** Stops the refused attempt and signs in: true when signed in, else why not. */
  private async signInAfresh(auth: ServerAuth): Promise<true | "closing" | Error> {
    await this.stop();
    this.closing = false;
    try {
      await auth.signIn(auth.fetch(fetch));
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
    return this.isClosing() ? "closing" : true;
  }

  /** Read through a method: `close()` may have run while a sign-in was awaited. */
  private isClosing(): boolean {
    return this.closing;
  }

  /** One attempt: connect, initialize, list the tools. Throws what went wrong. */
  private async connectOnce(): Promise<void> {
    const startedAt = performance.now();
    const client = await this.openClient();
    this.client = client;
    this.serverInfo = client.getServerVersion();
    this.protocolVersion = this.tapped?.protocolVersion;
    // One start-up deadline for initialize and the whole tool list together.
    const left = this.config.startupTimeoutMs - (performance.now() - startedAt);
    // Resources and prompts are listed beside the tools, but a session does not wait for them.
    const catalog = new ServerCatalog(client, this.config.startupTimeoutMs, () => this.options.onChange());
    this.catalog = catalog;
    this.catalogLoaded = catalog.load();
    this.tools = await this.listTools(client, Math.floor(left));
    const instructions = client.getInstructions();
    this.instructions = instructions === undefined ? undefined : this.options.redact(instructions);
    this.initializeMs = Math.round(performance.now() - startedAt);
    client.onclose = () => this.onConnectionLost();
    if (this.auth) this.auth.scheduleRefresh(this.auth.fetch(fetch));
    this.setStatus("connected", undefined);
  }

  private async openClient(): Promise<Client> {
    const { transport, url, headers } = this.config;
    const auth = this.auth;
    if (transport === "stdio") return this.connectWith(this.createStdioTransport());
    if (!url) throw new Error("no url configured");
    if (auth?.shouldRefreshNow()) await auth.refreshNow(auth.fetch(fetch));
    if (transport === "sse") return this.connectWith(legacySseTransport(url, headers, auth));
    try {
      return await this.connectWith(streamableHttpTransport(url, headers, auth));
    } catch (streamableError) {
      // Servers written before Streamable HTTP only speak the legacy SSE transport; one that
      // asked for authorization speaks Streamable HTTP.
      if (
        this.closing ||
        isTimeout(streamableError) ||
        auth?.describe(streamableError) ||
        isAuthError(streamableError)
      )
        throw streamableError;
      try {
        const client = await this.connectWith(legacySseTransport(url, headers, auth));
        this.transportUsed = "sse";
        return client;
      } catch {
        throw streamableError;
      }
    }
  }

  private async connectWith(transport: Transport): Promise<Client> {
    const client = new Client(CLIENT_INFO, {
      capabilities: this.capabilities(),
      jsonSchemaValidator: UNCHECKED_OUTPUT,
    });
    this.answerServerRequests(client);
    // Our own handler rather than the SDK's listChanged option: it marks the change the moment it
    // is announced (calls then wait for the new list), and lists every page, not just the first.
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      const change = this.toolRefresh.announce();
      clearTimeout(this.refreshTimer);
      this.refreshTimer = setTimeout(() => void this.refreshTools(client, change), TOOL_REFRESH_DEBOUNCE_MS);
    });
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      void this.catalog?.refresh("resources");
    });
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      void this.catalog?.refresh("prompts");
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      const { level, logger, data } = notification.params;
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
    });
    const privateAnswers = new PrivateAnswers();
    const tapped = new TappedTransport(transport, (direction, message) => {
      const { onWire } = this.options;
      if (onWire)
        onWire({
          server: this.name,
          direction,
          at: Date.now(),
          message: privateAnswers.forTrace(direction, message),
        });
    });
    this.client = client;
    this.tapped = tapped;
    await withDeadline(
      client.connect(tapped, { timeout: this.config.startupTimeoutMs }),
      this.config.startupTimeoutMs,
      `did not finish initialize within ${this.config.startupTimeoutMs} ms`,
    );
    return client;
  }

  /**
   * The requests a server may send mcpterm. Roots are answered at once; sampling and elicitation
   * go to the session's handlers, which ask the person (or decline where nobody can be asked).
   */
  private answerServerRequests(client: Client): void {
    const requests = this.options.requests ?? declineServerRequests();
    // Only a client that declared roots may answer roots/list (the SDK refuses the handler otherwise).
    if (rootsOffer(this.config).offered)
      client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: this.options.roots?.() ?? [] }));
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
      this.whileAsking(() => requests.createMessage(this.name, request.params, extra.signal)),
    );
    client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
      this.whileAsking(() => requests.elicit(this.name, request.params, extra.signal)),
    );
  }

  /** What this server is told mcpterm can do: everything, but roots only where they are offered. */
  private capabilities(): ClientCapabilities {
    const offer = rootsOffer(this.config);
    if (offer.offered) return CLIENT_CAPABILITIES;
    this.note("info", `not offered roots: ${offer.reason}`);
    const { roots: _roots, ...rest } = CLIENT_CAPABILITIES;
    return rest;
  }

  /** Runs one of the server's questions to the person; its calls' silence limits hold meanwhile. */
  private async whileAsking<T>(ask: () => Promise<T>): Promise<T> {
    this.openQuestions += 1;
    if (this.openQuestions === 1) for (const listener of this.questionListeners) listener(true);
    try {
      return await ask();
    } finally {
      this.openQuestions -= 1;
      if (this.openQuestions === 0) for (const listener of this.questionListeners) listener(false);
    }
  }

  private onQuestionsOpen(listener: (open: boolean) => void): () => void {
    this.questionListeners.add(listener);
    return () => this.questionListeners.delete(listener);
  }

  /** Tells the server the roots changed (notifications/roots/list_changed), if it is connected. */
  async rootsChanged(): Promise<void> {
    if (this.status !== "connected" || !this.client || !rootsOffer(this.config).offered) return;
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

  private createStdioTransport(): StdioProcessTransport {
    const { command, args, env, cwd } = this.config;
    const { onStderr } = this.options;
    if (!command) throw new Error("no command configured");
    this.stdio = new StdioProcessTransport({
      command,
      args,
      env: serverEnvironment(this.options.parentEnv, env),
      cwd,
      ...(this.options.shutdownGraceMs === undefined ? {} : { gracePeriodMs: this.options.shutdownGraceMs }),
      ...(onStderr
        ? {
            onStderrLine: (line: string) =>
              onStderr(this.name, this.options.redact(line.length > 2000 ? `${line.slice(0, 2000)}…` : line)),
          }
        : {}),
    });
    return this.stdio;
  }

  private async listTools(client: Client, deadlineMs: number): Promise<ServerTool[]> {
    if (!client.getServerCapabilities()?.tools) return [];
    return this.filterTools(await listToolPages(client, deadlineMs));
  }

  /** Fetches the list after announcement `change`; a list that cannot be fetched withdraws the tools. */
  private async refreshTools(client: Client, change: number): Promise<void> {
    if (this.closing) return;
    try {
      this.tools = this.filterTools(await listToolPages(client, this.config.startupTimeoutMs));
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
    return tools
      .filter((tool) => includeTools.length === 0 || includeTools.includes(tool.name))
      .filter((tool) => !excludeTools.includes(tool.name))
      .map((definition) => ({ server: this.name, definition }));
  }

  private onConnectionLost(): void {
    if (this.closing || this.status !== "connected") return;
    this.setStatus("failed", `connection lost: ${this.describeExit() ?? "the server closed the connection"}`);
    void this.stop();
  }

  private describeFailure(error: unknown): string {
    if (this.stdio?.spawnError) return this.stdio.spawnError.message;
    const signIn =
      this.auth?.describe(error) ?? unauthorizedSentence(error, this.name, this.auth !== undefined);
    if (signIn) return signIn;
    const exit = this.describeExit();
    if (exit) return `${exit} before initialize finished`;
    return `${errorMessage(error)}${this.stderrSuffix()}`;
  }

  private describeExit(): string | undefined {
    const exit = this.stdio?.exit;
    if (!exit) return undefined;
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code ?? "unknown"}`;
    return `the server process ${how}${this.stderrSuffix()}`;
  }

  private stderrSuffix(): string {
    const tail = this.stdio?.stderr.tail(STDERR_TAIL_IN_ERRORS).filter((line) => line.trim() !== "") ?? [];
    return tail.length > 0 ? `; stderr: ${tail.join(" | ")}` : "";
  }

  private async stop(): Promise<void> {
    this.closing = true;
    this.auth?.close();
    // A stopped server has no tools to wait for: nobody waits on a change it announced.
    clearTimeout(this.refreshTimer);
    this.toolRefresh.answered();
    const client = this.client;
    const stdio = this.stdio;
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

function withDeadline<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** A 401 or 403 from the server: another transport would be refused the same way. */
function isAuthError(error: unknown): boolean {
  return (
    error instanceof UnauthorizedError ||
    (error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403))
  );
}

/**
 * A 401 from a server mcpterm does not sign in to (`"oauth": false`, or its own Authorization
 * header): what it means and what to configure, instead of the server's raw answer.
 */
function unauthorizedSentence(error: unknown, server: string, signsIn: boolean): string | undefined {
  if (signsIn || !isAuthError(error)) return undefined;
  const code = error instanceof StreamableHTTPError ? error.code : 401;
  return (
    `server "${server}" refused the connection (HTTP ${code}): it needs authorization. ` +
    `Check the token in mcpServers.${server}.headers, or remove "oauth": false so mcpterm can sign in.`
  );
}

function isTimeout(error: unknown): boolean {
  return /within \d+ ms|timed out|timeout/i.test(errorMessage(error));
}
