import type {
  Client,
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  ReadResourceResult,
} from "@modelcontextprotocol/client";
import type { ServerConfig } from "../config/config-types.js";
import { withheldVariables, withheldVariablesHint } from "../config/withheld-variables.js";
import type { LoggingLevel } from "../deprecated-mcp.js";
import { errorMessage } from "../errors.js";
import { ServerAuth } from "../oauth/server-auth.js";
import { declineServerRequests } from "../person/decline-server-requests.js";
import { ClientOpener } from "./client-opener.js";
import { registerClientHandlers } from "./client-handlers.js";
import { ConnectionLog } from "./connection-log.js";
import { ConnectionLoss } from "./connection-loss.js";
import { describeConnectFailure, describeExit } from "./connection-failure.js";
import type { ProbeOutcome } from "./probe-watch.js";
import { negotiatedProtocol, type NegotiatedProtocol } from "./protocol-era.js";
import { QuestionHold } from "./question-hold.js";
import { rootsOffer } from "./roots.js";
import { ResponseCache } from "./response-cache.js";
import { EMPTY_CATALOG, ServerCatalog } from "./server-catalog.js";
import {
  essentialsText,
  howItEnded,
  serverExitReport,
  stderrEssentials,
  type ServerExitReport,
} from "./server-exit.js";
import type { ServerLogEntry } from "./server-log.js";
import type { ServerConnectionOptions } from "./server-connection-options.js";
import { ServerRequests } from "./server-requests.js";
import { ServerToolList } from "./server-tool-list.js";
import { SessionRenewal } from "./session-renewal.js";
import { connectSigningIn } from "./sign-in-loop.js";
import type { StdioProcessTransport } from "./stdio-process-transport.js";
import type { TappedTransport } from "./tapped-transport.js";
import type { LostAnswers } from "./lost-answers.js";
import { TaskDriver } from "./task-driver.js";
import type { TaskEntry } from "./task-list.js";
import { redactedEvent, ServerSubscriptions, subscriptionProblem } from "./subscriptions.js";
import { serverTransports } from "./transport-factory.js";
import type { CallOptions, CallToolResult, ServerSnapshot, ServerStatus } from "./types.js";

export type { ServerConnectionOptions } from "./server-connection-options.js";

/** How long a closing connection waits for its running tasks' tasks/cancel to go out. */
const TASK_CANCEL_ON_CLOSE_MS = 1000;

/**
 * One MCP server: its transport, client, status and tools. It never throws from `connect`: a
 * server that cannot start is marked failed with the reason, and the others carry on. What the
 * server wrote leaves here redacted.
 */
export class ServerConnection {
  private readonly log: ConnectionLog;
  private readonly tools: ServerToolList;
  private readonly session: SessionRenewal;
  private readonly opener: ClientOpener;
  private readonly requests: ServerRequests;
  /** Sampling and elicitation requests of this server waiting on the person now. */
  private readonly questions = new QuestionHold();
  /** Runs the calls the server answers with a task (tasks/), over every connection to it. */
  private readonly tasks: TaskDriver;
  private status: ServerStatus;
  private error: string | undefined;
  private client: Client | undefined;
  private stdio: StdioProcessTransport | undefined;
  private tapped: TappedTransport | undefined;
  /** The current client's watch for answers that will not come (stdio only). */
  private lost: LostAnswers | undefined;
  private serverInfo: ServerSnapshot["serverInfo"];
  private protocol: NegotiatedProtocol | undefined;
  private initializeMs: number | undefined;
  /** Why the server was spoken to in 2025 when it is to blame (an unanswered or late probe). */
  private probe: ProbeOutcome | undefined;
  private connecting: Promise<void> | undefined;
  private closing = false;
  /** The last connection attempt got past the handshake: it failed, if it did, reading the lists. */
  private handshaken = false;
  private catalog: ServerCatalog | undefined;
  private catalogLoaded: Promise<void> = Promise.resolve();
  private instructions: string | undefined;
  /** The transport the connection runs over: "sse" when a Streamable HTTP url fell back to it. */
  private transportUsed: ServerSnapshot["transport"];
  /** OAuth, for a remote server that may ask for it. */
  private readonly auth: ServerAuth | undefined;
  /** Brings the server back when it is lost while connected. */
  private readonly loss: ConnectionLoss;
  /** 2026 listen streams and resource subscriptions, kept across reconnections. */
  private readonly subscriptions: ServerSubscriptions;
  /** Results kept as long as the server said (ttlMs), across reconnections of this entry. */
  private readonly cache: ResponseCache;

  constructor(
    readonly config: ServerConfig,
    private readonly options: ServerConnectionOptions,
  ) {
    this.status = config.disabled ? "disabled" : "connecting";
    this.transportUsed = config.transport;
    this.auth = ServerAuth.for(config, options.oauth);
    const { redact, onLog, onChange } = options;
    this.log = new ConnectionLog({ server: config.name, redact, onLog, process: () => this.stdio });
    const note = (level: LoggingLevel, text: string): void => this.log.note(level, text);
    const isClosing = (): boolean => this.closing;
    // A 2026 connection over Streamable HTTP: arguments a tool marks with x-mcp-header go as headers too.
    const sendsHeaders = (): boolean => this.protocol?.era === "modern" && this.transportUsed === "http";
    this.cache = new ResponseCache(
      config.name,
      options.onCacheHit,
      Date.now,
      () => this.protocol?.era === "modern",
    );
    this.subscriptions = new ServerSubscriptions({
      server: config.name,
      timeoutMs: config.timeoutMs,
      emit: (event) => {
        const problem = subscriptionProblem(event);
        if (problem) note("warning", problem);
        options.onSubscription?.(redactedEvent(event, redact));
      },
      // Listening again after a drop: what changed in the gap is found by listing afresh.
      listsMissed: (honored) => {
        if (honored.toolsListChanged && this.client) this.tools.changed(this.client);
        if (honored.resourcesListChanged) void this.catalog?.changed("resources");
        if (honored.promptsListChanged) void this.catalog?.changed("prompts");
      },
    });
    this.tools = new ServerToolList({
      cache: this.cache,
      server: config.name,
      config,
      note,
      onChange,
      isClosing,
      sendsHeaders,
    });
    this.session = new SessionRenewal({
      name: config.name,
      auth: this.auth,
      state: () => ({ status: this.status, client: this.client, error: this.error }),
      restart: () => this.restart(),
      era: () => this.protocol?.era,
      sessionId: () => this.tapped?.sessionId,
      exitReport: () => this.exitReport(),
      note,
      redact,
    });
    this.loss = new ConnectionLoss({
      name: config.name,
      transport: config.transport,
      restarts: options.restartCrashed !== false || config.transport !== "stdio",
      exitPhrase: () => describeExit(this.stdio),
      exitReport: () => this.exitReport(),
      isConnected: () => this.status === "connected",
      failedReason: () => this.error,
      stop: () => this.stop(),
      reconnect: () => this.reconnect(),
      setStatus: (status, error) => this.setStatus(status, error),
      note,
      redact,
    });
    this.tasks = new TaskDriver(
      config.name,
      {
        server: config.name,
        requests: options.requests ?? declineServerRequests(),
        questions: this.questions,
        roots: rootsOffer(config).offered ? () => options.roots?.() ?? [] : undefined,
      },
      () => options.onChange(),
    );
    this.requests = new ServerRequests({
      name: config.name,
      config,
      session: this.session,
      tools: this.tools,
      questions: this.questions,
      tasks: this.tasks,
      cache: this.cache,
      era: () => this.protocol?.era,
      sendsHeaders,
      explainSilence: () => this.lost?.explainSilence(),
      note,
    });
    this.opener = new ClientOpener({
      config,
      auth: this.auth,
      transports: options.transports ?? serverTransports(config, this.auth, options),
      onWire: options.onWire,
      requestMeta: options.requestMeta,
      note,
      register: (client) => this.register(client),
      checkAnswers: (modern) => this.tools.checkAnswers(modern),
      watchTasks: (client) => this.tasks.watcher(client, () => this.protocol?.era),
      // Kept as soon as they exist: a stop closes them even mid-connect.
      made: ({ client, tapped, stdio, lost }) => {
        this.stdio = stdio ?? this.stdio;
        this.client = client;
        this.tapped = tapped;
        this.lost = lost;
      },
      isClosing,
      sessionLostOnStart: (error) => this.session.lostOnStart(error),
      endOf: (process) => {
        if (!process.exit || process.exit.stopped) return undefined;
        const said = essentialsText(stderrEssentials(this.stderrLines()));
        return `${howItEnded(process.exit)}${said === undefined ? "" : `: ${said}`}`;
      },
    });
  }

  get name(): string {
    return this.config.name;
  }

  /** The tasks this server ran for the session, oldest first (`/tasks`). */
  taskList(): TaskEntry[] {
    return this.tasks.list.snapshot();
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
    if (stopped) this.log.keepProcessLines();
    this.log.note("info", stopped ? "restarted; the new process's messages follow" : "reconnected");
    await this.connectAgain(undefined);
  }

  /** A new connection after a stop, `error` shown meanwhile. */
  private connectAgain(error: string | undefined): Promise<void> {
    this.closing = false;
    this.connecting = undefined;
    this.setStatus("connecting", error);
    return this.connect();
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
    await auth.forget();
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
    this.loss.stop();
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
      tools: connected ? this.tools.listed : [],
      refusedTools: connected ? this.tools.refusedTools : [],
      leftOutTools: connected ? this.tools.leftOutTools : [],
      configNameProblems: connected ? this.tools.configNameProblems : [],
      serverInfo: this.serverInfo,
      era: this.protocol?.era,
      protocolVersion: this.protocol?.version ?? this.tapped?.protocolVersion,
      instructions: connected ? this.instructions : undefined,
      initializeMs: this.initializeMs,
      ...(this.probe ? { probe: this.probe } : {}),
      catalog: connected ? (this.catalog?.snapshot() ?? EMPTY_CATALOG) : EMPTY_CATALOG,
      capabilities: connected ? this.client?.getServerCapabilities() : undefined,
      cacheHints: this.cache.hints(),
    };
  }

  /** What the server wrote to stderr, oldest first (bounded), redacted. */
  stderrLines(): string[] {
    return this.log.stderrLines();
  }

  /** Where the server's stderr is now: stderrSince(mark) is what it writes from here on. */
  stderrMark(): number {
    return this.log.stderrMark();
  }

  /** What the running process wrote to stderr after `mark`, oldest first (bounded), redacted. */
  stderrSince(mark: number): string[] {
    return this.log.stderrSince(mark);
  }

  /** How a stdio server's process ended, with the stderr lines that matter, once it has. */
  exitReport(): ServerExitReport | undefined {
    const exit = this.stdio?.exit;
    if (!exit) return undefined;
    const report = serverExitReport(exit, this.stderrLines());
    return this.stdio?.cutOff === undefined ? report : { ...report, cutOff: this.stdio.cutOff };
  }

  /**
   * exitReport for a process that ended of itself, or that mcpterm cut off for flooding it: not
   * one that exited as mcpterm stopped it (a restart, a stop, its stdin closed once connecting
   * failed), whose exit is not why anything failed.
   */
  ownExitReport(): ServerExitReport | undefined {
    const stdio = this.stdio;
    return stdio?.exit?.stopped === true && stdio.cutOff === undefined ? undefined : this.exitReport();
  }

  /** Lines a stdio server wrote to stdout that were not JSON-RPC, redacted. */
  stdoutNoise(): string[] {
    return this.log.stdoutNoise();
  }

  /**
   * For /mcp logs: stderr and stray stdout of every process since mcpterm started, each restart
   * marked. The methods above give the running process's alone (lint, error texts).
   */
  linesSinceStart(): { stderr: string[]; stdout: string[] } {
    return this.log.linesSinceStart();
  }

  /** The server's logging notifications, oldest first (bounded), redacted, one line each with time and level. */
  logMessages(): string[] {
    return this.log.messages();
  }

  logEntries(): ServerLogEntry[] {
    return this.log.entries();
  }

  /** Resolves once the resources, templates and prompts of the current connection were listed. */
  catalogSettled(): Promise<void> {
    return this.catalogLoaded;
  }

  /**
   * Resolves true once no announced tool change is waiting to be listed, false if `ms` pass
   * first; callers then must not trust the definitions they hold.
   */
  toolsSettled(ms: number): Promise<boolean> {
    return this.tools.settled(ms);
  }

  /** Asks the server for log messages from `level` up (see ServerRequests.setLogLevel). */
  setLogLevel(level: LoggingLevel): Promise<void> {
    return this.requests.setLogLevel(level);
  }

  /** Renders one of the server's prompts with `args` (prompts/get). */
  getPrompt(name: string, args: Record<string, string>, options: CallOptions = {}): Promise<GetPromptResult> {
    return this.requests.getPrompt(name, args, options);
  }

  /** Suggestions for one argument of a prompt or resource template (completion/complete). */
  complete(params: CompleteRequest["params"], options: CallOptions = {}): Promise<CompleteResult> {
    return this.requests.complete(params, options);
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
    return this.loss.callSurviving(tool, () => this.requests.callTool(tool, args, options), options);
  }

  /** Reads one resource; failures are classified like tool calls (see ServerRequests.readResource). */
  readResource(uri: string, options: CallOptions & { fresh?: boolean } = {}): Promise<ReadResourceResult> {
    return this.requests.readResource(uri, options);
  }

  /**
   * Subscribes to a resource (2026: a listen stream of its own; 2025: resources/subscribe); its
   * updates arrive as `onSubscription` events, also after the server was restarted.
   */
  subscribeResource(uri: string): Promise<void> {
    return this.session.run(() => this.subscriptions.subscribe(uri));
  }

  /** Ends a subscription; false when there was none. */
  unsubscribeResource(uri: string): Promise<boolean> {
    return this.subscriptions.unsubscribe(uri);
  }

  subscribedResources(): string[] {
    return this.subscriptions.subscribed();
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
      this.log.note("warning", `could not tell the server that the roots changed: ${errorMessage(error)}`);
    });
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
    const outcome = await this.session.connect(
      () => connectSigningIn(this.auth, () => this.connectOnce(), control),
      control,
    );
    if (outcome.kind !== "failed") return;
    const reason = await describeConnectFailure(outcome.error, {
      server: this.name,
      handshaken: this.handshaken,
      redact: this.options.redact,
      auth: this.auth,
      stdio: this.stdio,
      protocol: this.config.protocol ?? "auto",
      typed: this.config.typed === true,
      url: this.config.url,
      sentAuthorization: this.config.authorizationFromUrl
        ? "url"
        : Object.keys(this.config.headers).some((name) => name.toLowerCase() === "authorization")
          ? "header"
          : undefined,
    });
    // A 2026 server's answer to the probe that could not be used: the failure that followed
    // (initialize refused, a pinned revision not offered) does not say why.
    const story = this.opener.fallbackStory();
    await this.stop();
    this.setStatus(
      "failed",
      `${reason}${story ? `; ${this.options.redact(story)}` : ""}${this.withheldHint(reason)}`,
    );
  }

  /**
   * For a stdio server that failed naming a variable the person has set but the server was not
   * given (its error or stderr says `API_KEY is not set`): how to pass it on, as ` (…)`; "" otherwise.
   */
  withheldHint(reason: string): string {
    if (this.config.transport !== "stdio") return "";
    const said = [reason, ...this.stderrLines()].join("\n");
    const names = withheldVariables(said, this.options.parentEnv, this.config.env, this.config);
    return withheldVariablesHint(names, this.config);
  }

  /** One attempt: connect (the revision settled on the way), list the tools. Throws what went wrong. */
  private async connectOnce(): Promise<void> {
    const startedAt = performance.now();
    // Each connection of a server that signs in may be another authorization context.
    if (this.auth) this.cache.dropPrivate();
    this.handshaken = false;
    const { client, transport } = await this.opener.open();
    this.handshaken = true;
    this.client = client;
    this.transportUsed = transport;
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
    await this.tools.list(client, Math.floor(left));
    const instructions = client.getInstructions();
    this.instructions = instructions === undefined ? undefined : this.options.redact(instructions);
    this.initializeMs = Math.round(performance.now() - startedAt);
    this.probe = this.opener.probeOutcome();
    client.onclose = () => {
      if (!this.closing && this.status === "connected") this.loss.lost();
    };
    if (this.auth) this.auth.scheduleRefresh(this.auth.fetch(fetch));
    this.setStatus("connected", undefined);
    void this.subscriptions.attach(client, this.protocol.era);
  }

  /** Where a new client's questions and news go. */
  private register(client: Client): void {
    registerClientHandlers(client, {
      server: this.name,
      requests: this.options.requests ?? declineServerRequests(),
      roots: rootsOffer(this.config).offered ? () => this.options.roots?.() ?? [] : undefined,
      questions: this.questions,
      toolsChanged: () => this.tools.changed(client),
      resourcesChanged: () => void this.catalog?.changed("resources"),
      promptsChanged: () => void this.catalog?.changed("prompts"),
      resourceUpdated: (uri) => {
        this.cache.invalidate("resources/read", uri);
        this.subscriptions.updated(uri);
      },
      log: (params) => this.log.keep(params),
    });
  }

  /** The recovery's new connection, once the lost one was stopped. */
  private async reconnect(): Promise<void> {
    // What the lost process wrote stays readable in /mcp logs (redacted, as the running one's).
    if (this.stdio?.exit) {
      this.log.keepProcessLines();
      this.stdio = undefined;
      // A new process is a new server: nothing the crashed one said may be kept holds for it.
      this.cache.clear();
    }
    await this.connectAgain(this.error);
  }

  private async stop(): Promise<void> {
    this.closing = true;
    this.auth?.close();
    this.tools.stop();
    // Before the client closes: a task still running gets its tasks/cancel out first.
    await this.tasks.stopAll(TASK_CANCEL_ON_CLOSE_MS);
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
