import type { ToolNarrowing } from "../agent/narrowed-tool-host.js";
import type { LazyKnowledge } from "../agent/lazy-knowledge.js";
import { McpToolHost } from "../agent/mcp-tool-host.js";
import { loadKnowledge, oneShotKnowledge, sessionKnowledge, sessionToolHost } from "./session-tools.js";
import { Session } from "../agent/session.js";
import type { ToolHost } from "../agent/tool-host.js";
import {
  serverLaunchHash,
  serversNeedingTrust,
  trustWarnings,
  type KeyedEndpoint,
} from "../config/config-trust.js";
import { isHttpUrl, isLoopbackHost } from "../config/http-url.js";
import { embeddingsNeedingTrust, resolveEmbeddingsSettings } from "../config/embeddings-settings.js";
import { ensureProjectStateFolder } from "../config/project-state-folder.js";
import {
  DEFAULT_AUTO_APPROVED_TIERS,
  loadConfig,
  resolveModelSettings,
  type McptermConfig,
  type ResolvedModelSettings,
} from "../config/index.js";
import { UserSettings } from "../config/user-settings.js";
import { withProtocol } from "../config/pin-protocol.js";
import type { ProtocolSetting } from "../config/config-types.js";
import { ConfigError, UsageError, errorMessage } from "../errors.js";
import type { KnowledgeAccess } from "../kb/index.js";
import { knowledgeDir, type openFreshKnowledge } from "../kb/knowledge-folder.js";
import { lazyChatModel } from "../llm/lazy-chat-model.js";
import type { ChatModel } from "../llm/types.js";
import type { McpManager } from "../mcp/mcp-manager.js";
import { RootList } from "../mcp/roots.js";
import { watchServerExits } from "../mcp/exit-watch.js";
import { exitSentence } from "../mcp/server-exit.js";
import { startFailureSentence, watchStartFailures } from "../mcp/start-failure-watch.js";
import { isErrorLevel, loggedSentence, type ServerLogEntry } from "../mcp/server-log.js";
import { stdoutNoiseSentence } from "../mcp/stdout-noise.js";
import { sessionApprovalRules } from "../policy/approval-rules.js";
import { findArgumentSecrets } from "../policy/argument-secrets.js";
import { SchemaValidator } from "../policy/schema-validator.js";
import { ToolAllowances } from "../policy/tool-allowances.js";
import type { SecretRedactor } from "../policy/redact-secrets.js";
import type { Tier } from "../policy/tiers.js";
import { traceDir } from "../trace/trace-files.js";
import { sessionToolSearch, type ToolSearch } from "../tool-search/index.js";
import { TraceFileRefused } from "../trace/trace-file.js";
import { TraceRecorder, type TraceRecorderOptions } from "../trace/trace-recorder.js";
import { ContextWindowCache } from "../llm/context-window-cache.js";
import { userCacheDir } from "../config/user-cache-dir.js";
import { settleConfigTrust } from "./config-trust-step.js";
import { SessionMarks } from "./session-mark.js";
import { userSettingsDir } from "../config/user-settings.js";
import { NOBODY, type Person } from "../person/person.js";
import { sessionServers } from "./session-servers.js";
import { NoticeThrottle } from "../person/notice-throttle.js";
import { ResourceUpdateNotices } from "./resource-updates.js";
import { sessionRedactor } from "./session-redactor.js";
import type { SavedSession } from "./saved-session.js";
import { sessionsDir } from "./saved-session-files.js";
import { SessionSaver } from "./session-saver.js";
import { InputHistoryFile } from "./input-history-file.js";
import { openSessionTelemetry, withTelemetrySink, withTelemetryWire } from "./telemetry-step.js";

/** What the person asked for on the command line: the same request for the TUI and one-shot mode. */
export interface SessionRequest {
  /** --config, as typed; undefined: ./mcp.config.json if there is one. */
  configPath: string | undefined;
  /** --kb, as typed; undefined: the config's kb.dir, else ./knowledge_base. */
  kbDir: string | undefined;
  /** False for --no-kb. */
  kb: boolean;
  /** --model, --base-url, --api-key. */
  model: { model?: string | undefined; baseUrl?: string | undefined; apiKey?: string | undefined };
  maxSteps: number;
  /** --trace: record here instead of .mcpterm/traces/<session>.jsonl. */
  traceFile: string | undefined;
  /** --otlp-endpoint: export spans live to this collector (else as OTEL_* or the settings say). */
  otlpEndpoint?: string | undefined;
  /** --trust-config: this run may start the config's servers without asking. */
  trustConfig: boolean;
  /** Tiers allowed on the command line (--approve, or every tier for --yes). */
  approve: readonly Tier[];
  /** Whether a person is there to ask about calls; without one, what needs asking is denied. */
  interactive: boolean;
  /** --allow-secret-arguments: calls may send secrets found in their arguments without a person. */
  allowSecretArguments: boolean;
  /** --allow-sampling: servers' sampling requests are answered by the model without a person. */
  allowSampling: boolean;
  /** --root: folders offered as MCP roots besides the working folder. */
  roots: readonly string[];
  /** --protocol: the MCP revision to speak with every server, over their entries' own. */
  protocol?: ProtocolSetting;
}

/** The process's environment and folder, injected (tests pass their own). */
export interface SessionPlace {
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface SessionHooks {
  /**
   * Who is asked whether to trust the project's config as the session opens (the TUI's terminal,
   * before it draws). Absent (NOBODY), an untrusted config is a ConfigError that names what it
   * would start and the flag that allows it.
   */
  person?: Person;
  /** Stops that question unanswered (Ctrl+C), as it stops the rest of the run. */
  signal?: AbortSignal;
}

/** An image a tool returned: its type and base64 data, as the server sent it. */
export interface ToolImage {
  mimeType: string;
  data: string;
}

export interface SessionNotice {
  level: "info" | "warning";
  text: string;
}

/** Something the person should hear about while the session runs: a server's error, a declined request. */
export interface LiveNotice {
  level: "info" | "warning" | "error";
  text: string;
  server: string | undefined;
}

/**
 * Everything a running session stands on, built in one place for the TUI and one-shot mode:
 * config, the user's settings, trust, the redactor, the trace, servers, knowledge, tool hosts,
 * the approval rules, and the chat model. Nothing has started yet; `start` starts it.
 */
export interface SessionRuntime {
  readonly config: McptermConfig;
  readonly manager: McpManager;
  /** Removes secrets from what is shown or sent: the rule sets and the secrets this session knows. */
  readonly redactor: SecretRedactor;
  /** Built-in tools first, then the servers' tools. */
  readonly tools: ToolHost;
  /** The same tools: which of them the model is offered this session (/tools hide and show). */
  readonly narrowing: ToolNarrowing;
  /** Which tools each request offers when there are too many for all (/tools, /tools pin). */
  readonly toolSearch: ToolSearch;
  /** The knowledge base: loading, ready, or off (turned off, or it could not be opened). */
  readonly knowledge: LazyKnowledge;
  readonly trace: TraceRecorder;
  /** Marks the sessions this user's mcpterm starts, and tells them from others (/resume). */
  readonly sessionMarks: SessionMarks;
  /** What the person should be told before the first turn (servers not started, tiers ignored). */
  readonly notices: readonly SessionNotice[];
  /** Why the config's servers were not started at all (it is not trusted), for /mcp to say. */
  readonly serversNotStarted: string | undefined;
  /** Why no model can be reached with the settings given (flags, environment, config), if so. */
  readonly modelProblem: ConfigError | undefined;
  /**
   * Starts the servers and indexes the knowledge base, side by side and in the background; each
   * promise settles when its part did, never rejecting (a server or index that fails is marked
   * so). One-shot mode waits for both; the TUI draws at once. Calling it again returns the same.
   */
  start(): { servers: Promise<void>; knowledge: Promise<KnowledgeAccess> };
  /** A chat model for `name` (undefined: the configured one); throws ConfigError when it cannot. */
  modelFor(name?: string): ChatModel;
  /**
   * A new conversation over this runtime with `model`, saved to .mcpterm/sessions as it goes;
   * with `resumed`, that saved conversation goes on (and is saved on in its own file).
   */
  newSession(model: ChatModel, resumed?: SavedSession): Session;
  /** Where this working folder's sessions are saved. */
  readonly sessionsDir: string;
  /** What the person sent in this folder, for ↑ in the next session too. */
  readonly inputHistory: InputHistoryFile;
  /** The person's "always allow" answers (tools, and fetching pages), for every conversation of this run. */
  readonly allowances: ToolAllowances;
  /** The folders offered to servers as MCP roots; adding one tells every connected server. */
  readonly roots: RootList;
  /**
   * Who is asked from now on — calls to approve, servers' sampling and elicitation, sign-ins:
   * the TUI gives itself; undefined (and until then) NOBODY, who declines everything.
   */
  askPersonWith(person: Person | undefined): void;
  /** The images in tool results as they arrive (the TUI draws them where the terminal can). */
  onImages(listener: (images: ToolImage[]) => void): () => void;
  /** Live notices (server errors, declined requests) as they happen; returns the unsubscribe. */
  onNotice(listener: (notice: LiveNotice) => void): () => void;
  /** Stops the servers and ends the trace. */
  close(): Promise<void>;
}

export async function openSession(
  request: SessionRequest,
  place: SessionPlace,
  hooks: SessionHooks = {},
): Promise<SessionRuntime> {
  const { env, cwd } = place;
  const config = withProtocol(
    await loadConfig({
      ...(request.configPath === undefined ? {} : { path: request.configPath }),
      explicit: request.configPath !== undefined,
      cwd,
      env,
    }),
    request.protocol,
  );
  const settings = new UserSettings(env.MCPTERM_SETTINGS_DIR, env);
  // Set when the person did not trust the config whose endpoint would receive their key.
  let keyRefused: ConfigError | undefined;
  const windows = new ContextWindowCache(userCacheDir(env));
  const modelFor = (name?: string): ChatModel => {
    if (keyRefused) throw keyRefused;
    // A name other than the settings' own was chosen in the TUI (/model, a resumed session's
    // model): named so in what goes wrong with it. The settings' own keeps where it came from.
    const chosen = name !== undefined && name !== model.settings?.model;
    const resolved = resolveModelSettings({
      flags: chosen ? withModel(request.model, name) : request.model,
      env,
      config,
    });
    return lazyChatModel(
      chosen ? { ...resolved, sources: { ...resolved.sources, model: "/model" } } : resolved,
      undefined,
      windows,
    );
  };
  const model = settingsOrProblem(() => resolveModelSettings({ flags: request.model, env, config }));
  // With nobody to fix it with /model, a run without a model ends here, before anything starts.
  if (model.problem && !request.interactive) throw model.problem;

  const notices: SessionNotice[] = config.warnings.map((text) => ({ level: "warning", text }));
  const unusableSettings = settings.problem();
  if (unusableSettings)
    notices.push({
      level: "warning",
      text: `${unusableSettings}: your settings count as empty until it is fixed (no tier runs unasked, no config is trusted, no tool always allowed), and mcpterm saves nothing over it.`,
    });
  for (const finding of settings.findings()) notices.push({ level: "warning", text: finding });
  // The user's key, or their whole conversation off this machine, goes to an endpoint a project
  // file chose only if the person trusts that file.
  const endpoint = projectEndpoint(model.settings);
  const redactor = sessionRedactor(config, env, [request.model.apiKey]);
  const redact = redactor.redactText;
  const embeddingsEndpoint = embeddingsNeedingTrust(config, env);
  const trusted = await settleConfigTrust(config, settings, {
    flag: request.trustConfig,
    endpoint,
    embeddings: embeddingsEndpoint,
    redact,
    person: hooks.person ?? NOBODY,
    ...(hooks.signal ? { signal: hooks.signal } : {}),
  });
  if (!trusted) {
    notices.push({
      level: "warning",
      text: `Not starting the servers of ${config.path ?? "the config"}: not trusted. Restart mcpterm to be asked again.`,
    });
    if (endpoint) {
      keyRefused = new ConfigError(
        `Not sending your ${endpoint.keySource === undefined ? "messages" : "API key"} to ${redact(endpoint.url)}: it comes from the untrusted ${config.path ?? "config"} (model.baseUrl); pass --base-url to choose the endpoint yourself, or restart and trust the config.`,
      );
    }
  }
  const servers = trusted ? config.servers : [];
  const heldBack = trusted ? [] : config.servers.map((server) => server.name);
  const serversNotStarted =
    heldBack.length === 0
      ? undefined
      : `The ${heldBack.length === 1 ? "server" : `${heldBack.length} servers`} of ${config.path ?? "the config"} (${heldBack.join(", ")}) ${heldBack.length === 1 ? "was" : "were"} not started: the config is not trusted. Restart mcpterm to be asked again, or start it with --trust-config.`;
  // The embeddings endpoint is trusted with the config where the trust covered it: the flag, or a
  // yes (now or before) to a question that showed it. It is no reason to ask on its own.
  const embeddingsTrusted =
    request.trustConfig || (trusted && (endpoint !== undefined || serversNeedingTrust(config).length > 0));
  // Trusted by --trust-config or an earlier yes: still say what a marked line does as it starts.
  for (const server of servers.filter((entry) => !entry.disabled))
    for (const text of trustWarnings(server, redact))
      notices.push({ level: "warning", text: `server ${JSON.stringify(server.name)} ${text}.` });

  const inputHistory = new InputHistoryFile(cwd, async (text) => (await redactor.redact(text)).text);
  const noticeListeners = new Set<(notice: LiveNotice) => void>();
  const throttle = new NoticeThrottle();
  const tell = (notice: LiveNotice): void => {
    const text = throttle.pass(`${notice.server ?? ""}\u0000${notice.level}`, notice.text);
    if (text === undefined) return;
    for (const listener of noticeListeners) listener({ ...notice, text });
  };
  // Every session is recorded: to the given file, else to .mcpterm/traces/<session>.jsonl.
  if (!request.traceFile) ensureProjectStateFolder(cwd, traceDir(cwd));
  const trace = openTrace(request.traceFile, {
    dir: traceDir(cwd),
    redaction: redactor.forRecords,
    model: model.settings?.model ?? "unset",
    servers: servers.map((server) => server.name),
    cwd,
    onWriteFailure: (text) => tell({ level: "warning", text, server: undefined }),
  });
  const roots = new RootList([cwd]);
  for (const folder of request.roots) {
    const added = roots.add(folder, cwd);
    if (!added.ok) throw new UsageError(`--root ${folder}: ${added.reason}; give an existing folder.`);
  }
  let person: Person = NOBODY;
  let sessionModel: ChatModel | undefined;
  // Live OpenTelemetry export, when asked for; the packages are loaded only then.
  const { telemetry, warnings: telemetryWarnings } = await openSessionTelemetry({
    flag: request.otlpEndpoint,
    env,
    settings,
    config,
    sessionId: trace.sessionId,
    model: () => sessionModel?.model ?? model.settings?.model ?? "unset",
    modelEndpoint: model.settings?.baseUrl,
    redact,
    learn: (secret) => redactor.learn(secret),
    warn: (text) => tell({ level: "warning", text, server: undefined }),
  });
  for (const text of telemetryWarnings) notices.push({ level: "warning", text });
  const onLog = (entry: ServerLogEntry): void => {
    if (isErrorLevel(entry.level))
      tell({
        level: "error",
        text: loggedSentence(entry),
        server: entry.server,
      });
  };
  // Reads through the manager made just below, once an update arrives (after it started).
  const updates = new ResourceUpdateNotices((server) => manager.connection(server), redactor, tell);
  const manager = await sessionServers(servers, {
    env,
    redactor,
    roots,
    person: () => person,
    allowSampling: request.allowSampling,
    // Sampling answers with the conversation's model (after /model, the new one).
    model: () => sessionModel ?? modelFor(),
    record: trace.serverRequest,
    notify: (text, server) => tell({ level: "warning", text, server }),
    manager: {
      onWire: withTelemetryWire(trace.wire, telemetry),
      onLog,
      // Subscriptions are traced; an update to a resource the person subscribed to is told at once.
      onSubscription: (event) => {
        trace.subscription(event);
        if (event.kind === "updated") updates.updated(event.server, event.uri);
      },
      onCacheHit: trace.cacheHit,
      // Most clients drop a server for it; mcpterm reads on, and says so as it happens.
      onStdoutNoise: (server, line, leftByExit) => {
        trace.stdoutNoise(server, line);
        tell({ level: "warning", text: stdoutNoiseSentence(server, line, leftByExit), server });
      },
      ...(telemetry ? { requestMeta: telemetry.requestMeta } : {}),
    },
  });
  // A crash is recorded with how and why; one after the server was connected is told as it happens.
  const stopWatchingExits = watchServerExits(manager, (server, report, wasConnected, restarting) => {
    trace.serverExit(server, report);
    const then = restarting ? "starting it again" : "its tools are unavailable";
    if (wasConnected) tell({ level: "error", text: `${exitSentence(server, report)} — ${then}`, server });
  });
  // A server that never connected is told once, with why: the status line alone said "1 failed".
  const stopWatchingStarts = watchStartFailures(manager, (server, reason) => {
    tell({ level: "error", text: startFailureSentence(server, reason), server });
  });
  // One validator for the session: arguments against inputSchema, results against outputSchema.
  const validator = new SchemaValidator();
  const imageListeners = new Set<(images: ToolImage[]) => void>();
  const mcpTools = new McpToolHost(manager, {
    redactor,
    onRawResult: trace.rawResult,
    validator,
    onImages: (images) => {
      for (const listener of imageListeners) listener(images);
    },
  });

  const knowledge = request.interactive
    ? sessionKnowledge(config, request.kb, redact)
    : oneShotKnowledge(config, request.kb, redact, { flagDir: request.kbDir, cwd }, (text) =>
        notices.push({ level: "warning", text }),
      );
  const kbOn = knowledge.access().state === "loading";
  // Many tools: each request offers those that matter to it, and search_tools finds the rest.
  const toolSearch = sessionToolSearch(config, {
    embeddings: resolveEmbeddingsSettings(config, env, embeddingsTrusted).settings,
    instructions: (name) => manager.servers().find((server) => server.name === name)?.instructions ?? "",
    warn: (text) => tell({ level: "warning", text, server: undefined }),
  });
  const tools = sessionToolHost({ knowledge, toolSearch, servers: mcpTools });

  const { rules: approval, ignored } = sessionApprovalRules({
    config: config.approval,
    defaults: DEFAULT_AUTO_APPROVED_TIERS,
    settings: settings.autoApprovedTiers(),
    flagged: request.approve,
    interactive: request.interactive,
    allowSecretArguments: request.allowSecretArguments,
  });
  if (ignored.length > 0) {
    notices.push({
      level: "warning",
      text: `approval.auto in ${config.path ?? "the config"} lists ${ignored.join(", ")}; risky tiers only run unasked when you allow them (--approve, or your own settings)${ignored.length === config.approval.auto.length ? `, and mcpterm's default (${DEFAULT_AUTO_APPROVED_TIERS.join(", ")}) stands` : ""}.`,
    });
  }

  // Embeddings see every message: an endpoint the project names off this machine needs --trust-config.
  const embeddingsFor = (tell: (notice: LiveNotice) => void): Parameters<typeof openFreshKnowledge>[2] => {
    const warn = (text: string): void => tell({ level: "warning", text, server: undefined });
    const { settings: embeddings, warning } = resolveEmbeddingsSettings(config, env, embeddingsTrusted);
    if (warning) warn(warning);
    return { ...(embeddings ? { embeddings } : {}), onWarning: warn };
  };
  // "Always allow in this project" lasts in the user's settings, keyed by the working folder,
  // each rule tied to what its server's entry runs.
  const allowances = new ToolAllowances(settings.allowanceStore(cwd), (server) => {
    const entry = manager.connection(server)?.config;
    return entry && serverLaunchHash(entry);
  });
  const savers = new Set<SessionSaver>();
  /** Savers of conversations a new one replaced (the TUI's /resume), closing once their last turn is written. */
  const replaced: Array<Promise<void>> = [];
  let conversations = 0;
  let started: ReturnType<SessionRuntime["start"]> | undefined;
  const startServers = async (): Promise<void> => {
    telemetry?.serversStarting();
    await manager.start();
    trace.servers(manager.servers());
    telemetry?.serversSettled(manager.servers());
  };
  const start = (): ReturnType<SessionRuntime["start"]> => {
    started ??= {
      servers: startServers(),
      knowledge: kbOn
        ? loadKnowledge(knowledge, () => knowledgeDir(request.kbDir, config, cwd), cwd, embeddingsFor(tell))
        : Promise.resolve(knowledge.access()),
    };
    return started;
  };

  // Whose each saved session is: `--continue` goes on only with this user's own (SessionMarks).
  const sessionMarks = SessionMarks.forEnv(env);
  let toldUnmarked = false;
  const markOrSay = (id: string, folder: string): string | undefined => {
    const mark = sessionMarks.mark(id, folder);
    if (mark === undefined && !toldUnmarked) {
      toldUnmarked = true;
      tell({
        level: "warning",
        text: `The key that marks your sessions as yours could not be made or read in ${userSettingsDir(env)}; this session is saved without it, so --continue will not pick it (mcpterm --resume ${id} will).`,
        server: undefined,
      });
    }
    return mark;
  };
  return {
    config,
    manager,
    redactor,
    tools,
    narrowing: tools,
    toolSearch,
    knowledge,
    trace,
    notices,
    serversNotStarted,
    modelProblem: keyRefused ?? model.problem,
    start,
    modelFor,
    roots,
    allowances,
    askPersonWith: (next) => {
      person = next ?? NOBODY;
    },
    onImages: (listener) => {
      imageListeners.add(listener);
      return () => imageListeners.delete(listener);
    },
    onNotice: (listener) => {
      noticeListeners.add(listener);
      return () => noticeListeners.delete(listener);
    },
    sessionsDir: sessionsDir(cwd),
    sessionMarks,
    inputHistory,
    newSession: (model, resumed) => {
      sessionModel = model;
      // The run's first conversation is saved under its trace's id: one id finds both.
      const sharesTraceId = conversations === 0 && resumed === undefined;
      conversations += 1;
      // The conversation this one replaces gets no more turns: its file is let go (and no longer
      // held as in use, see session-in-use.ts) once its last turn is written.
      for (const old of savers) replaced.push(old.settled().then(() => old.close()));
      savers.clear();
      const saver = new SessionSaver(
        {
          dir: sessionsDir(cwd),
          cwd,
          redaction: redactor.forRecords,
          mark: (id, folder) => markOrSay(id, folder),
          ...(sharesTraceId ? { id: trace.sessionId } : {}),
        },
        resumed,
      );
      savers.add(saver);
      const session = new Session({
        model,
        tools,
        approval,
        person: () => person,
        allowances,
        maxSteps: request.maxSteps,
        cwd,
        sink: withTelemetrySink(trace, telemetry),
        output: { redact, spacedSecrets: redactor.spacedSecrets, full: redactor.forRecords },
        // A string holding a part of a key is masked from then on: an allowed call sends it.
        scanArguments: (args) => findArgumentSecrets(args, redactor, (text) => redactor.withhold(text)),
        validator,
        ...(kbOn ? { knowledge } : {}),
        serverInstructions: () =>
          manager
            .servers()
            .flatMap((server) =>
              server.instructions ? [{ server: server.name, text: server.instructions }] : [],
            ),
        onModelChange: (next) => {
          sessionModel = next;
        },
        journal: saver,
        confirmedInferred: config.answers.confirmedInferred,
        toolSearch,
      });
      if (resumed)
        session.restore({
          history: resumed.history,
          turns: resumed.turns.length,
          calls: resumed.turns.flatMap((turn) => turn.tools),
        });
      return session;
    },
    close: async () => {
      stopWatchingExits();
      stopWatchingStarts();
      await manager.close();
      // Records waiting on the full secret rules are written checked, not cut short.
      await trace.settled();
      trace.close();
      // Bounded (telemetry.exitFlushMs), and not at all when the collector is known to be down.
      await telemetry?.close();
      await Promise.all([
        ...[...savers].map((saver) => saver.settled()),
        inputHistory.settled(),
        ...replaced,
      ]);
      for (const saver of savers) saver.close();
    },
  };
}

function withModel(flags: SessionRequest["model"], name: string | undefined): SessionRequest["model"] {
  return name === undefined ? flags : { ...flags, model: name };
}

/** Missing or wrong model settings are not fatal here: the TUI says so and lets /model fix it. */
function settingsOrProblem(resolve: () => ResolvedModelSettings): {
  settings: ResolvedModelSettings | undefined;
  problem: ConfigError | undefined;
} {
  try {
    return { settings: resolve(), problem: undefined };
  } catch (error) {
    if (error instanceof ConfigError) return { settings: undefined, problem: error };
    throw error;
  }
}

/**
 * The session's trace, in `--trace`'s file when one is given: a name mcpterm cannot or will not
 * write (a folder, a link a project brought, a folder it may not write in) is a usage error
 * naming the flag (exit 2), before anything starts.
 */
function openTrace(file: string | undefined, options: Omit<TraceRecorderOptions, "file">): TraceRecorder {
  if (file === undefined) return TraceRecorder.open(options);
  try {
    return TraceRecorder.open({ ...options, file });
  } catch (error) {
    if (error instanceof TraceFileRefused) throw new UsageError(`--trace ${file}: ${error.message}.`);
    if (typeof (error as NodeJS.ErrnoException).code !== "string") throw error;
    throw new UsageError(
      `--trace ${file}: cannot write the trace there (${errorMessage(error)}); name a file mcpterm can write.`,
    );
  }
}

/**
 * The project's model endpoint when it needs the person's trust: the user's key would go there,
 * or, with no key, it is off this machine and every message would (a local server needs none).
 */
function projectEndpoint(settings: ResolvedModelSettings | undefined): KeyedEndpoint | undefined {
  if (!settings?.baseUrlFromConfig || !settings.baseUrl) return undefined;
  const { baseUrl: url, apiKeySource: keySource } = settings;
  if (keySource !== undefined) return { url, keySource };
  return isHttpUrl(url) && isLoopbackHost(new URL(url).hostname) ? undefined : { url, keySource: undefined };
}
