import { ReadStream, WriteStream } from "node:tty";
import { render } from "ink";
import type { CliArgs } from "../args.js";
import { CompositeToolHost } from "../core/agent/composite-tool-host.js";
import { McpToolHost } from "../core/agent/mcp-tool-host.js";
import { Session } from "../core/agent/session.js";
import { resolveModelSettings } from "../core/config/index.js";
import { errorMessage, ExitCode, UsageError } from "../core/errors.js";
import { createOpenAiChatModel } from "../core/llm/openai-chat-model.js";
import { McpManager } from "../core/mcp/mcp-manager.js";
import { autoTiersFromProjectConfig } from "../core/policy/approval-policy.js";
import type { CliIo } from "../headless/cli-io.js";
import { loadProjectConfig } from "../headless/load-project-config.js";
import { openFreshKnowledge } from "../headless/open-knowledge.js";
import { UserSettings } from "../core/config/user-settings.js";
import { SecretRedactor } from "../core/policy/redact-secrets.js";
import { traceDir } from "../core/trace/trace-files.js";
import { TraceRecorder } from "../core/trace/trace-recorder.js";
import { App } from "./App.js";
import { confirmConfigTrust } from "./config-trust-prompt.js";
import { LazyKnowledge } from "./lazy-knowledge.js";
import { ThemeContext, themeFor } from "./theme.js";
import { TranscriptStore } from "./transcript-store.js";
import { TuiController } from "./tui-controller.js";

type InteractiveArgs = Extract<CliArgs, { command: "interactive" }>;

/**
 * `mcpterm` on a terminal: draws the prompt at once, connects the servers and indexes the
 * knowledge base in the background, and runs until the person exits. Returns the exit code.
 */
export async function runInteractive(args: InteractiveArgs, io: CliIo): Promise<number> {
  const { stdin, stdout } = io;
  if (!(stdin instanceof ReadStream) || !(stdout instanceof WriteStream)) {
    throw new UsageError(
      "The interactive assistant needs a terminal on stdin and stdout; for scripts use mcpterm -p <text>.",
    );
  }
  const config = await loadProjectConfig(args.common, io);
  const userSettings = new UserSettings(io.env.MCPTERM_SETTINGS_DIR);
  const trusted = await confirmConfigTrust(config, userSettings, io, args.trustConfig);
  const store = new TranscriptStore();
  const { dispatch } = store;
  const servers = trusted ? config.servers : [];
  if (!trusted) {
    dispatch({
      type: "ui_notice",
      level: "warning",
      text: `Not starting the servers of ${config.path ?? "the config"}: not trusted. Restart mcpterm to be asked again.`,
    });
  }

  const projectTiers = autoTiersFromProjectConfig(config.approval.auto);
  const auto = [...new Set([...projectTiers.auto, ...userSettings.autoApprovedTiers()])];
  const { ignored } = projectTiers;
  if (ignored.length > 0) {
    dispatch({
      type: "ui_notice",
      level: "warning",
      text: `approval.auto in ${config.path ?? "the config"} lists ${ignored.join(", ")}; risky tiers always ask here.`,
    });
  }

  const redactor = SecretRedactor.forSession(
    [args.modelArgs.apiKey, io.env.OPENAI_API_KEY, io.env.ARK_API_KEY],
    io.env,
  );
  const redact = (text: string): string => redactor.redactSync(text).text;
  const trace = TraceRecorder.open({
    ...(args.trace ? { file: args.trace } : {}),
    dir: traceDir(io.cwd),
    redact,
    model: args.modelArgs.model ?? io.env.MCPTERM_MODEL ?? config.model.name ?? "unset",
    servers: servers.map((server) => server.name),
    cwd: io.cwd,
  });
  const kbEnabled = args.kb && config.kb.enabled;
  const manager = new McpManager(servers, { parentEnv: io.env, onWire: trace.wire });
  const knowledge = new LazyKnowledge(
    kbEnabled
      ? { state: "loading" }
      : { state: "off", reason: "The knowledge base is turned off (--no-kb, or kb.enabled in the config)." },
    config.kb.topK,
    redact,
  );
  const tools = new CompositeToolHost([
    knowledge,
    new McpToolHost(manager, { redactor, onRawResult: trace.rawResult }),
  ]);

  let exit: () => void = () => undefined;
  const exited = new Promise<void>((resolve) => {
    exit = resolve;
  });
  const controller = new TuiController({
    dispatch,
    manager,
    tools,
    knowledge: () => knowledge.current(),
    modelFor: (name) =>
      createOpenAiChatModel(
        resolveModelSettings({
          flags: { ...args.modelArgs, ...(name === undefined ? {} : { model: name }) },
          env: io.env,
          config,
        }),
      ),
    newSession: (model) =>
      new Session({
        model,
        tools,
        approval: { auto, flagged: [] },
        maxSteps: args.maxSteps,
        cwd: io.cwd,
        sink: trace,
        redactText: redact,
        ...(kbEnabled ? { knowledge } : {}),
      }),
    onExit: () => exit(),
    redact,
    traceFile: trace.file,
  });

  // Neither servers nor the index are awaited: the prompt is usable while they come up.
  void manager.start().then(() => trace.servers(manager.servers()));
  if (kbEnabled) {
    dispatch({ type: "ui_kb", kb: { state: "loading" } });
    openFreshKnowledge(args.common, config, io.cwd).then(
      ({ kb }) => {
        knowledge.ready(kb);
        const stats = kb.stats();
        dispatch({ type: "ui_kb", kb: { state: "ready", chunks: stats.chunks, files: stats.files } });
      },
      (error: unknown) => {
        knowledge.off(`The knowledge base could not be opened: ${errorMessage(error)}`);
        dispatch({ type: "ui_kb", kb: { state: "off" } });
        dispatch({
          type: "ui_notice",
          level: "warning",
          text: `Knowledge base unavailable: ${errorMessage(error)}`,
        });
      },
    );
  }

  const onSignal = (): void => exit();
  io.signal.addEventListener("abort", onSignal, { once: true });
  const instance = render(
    <ThemeContext.Provider value={themeFor(io.env)}>
      <App store={store} controller={controller} onExit={() => exit()} />
    </ThemeContext.Provider>,
    {
      stdout,
      stdin,
      exitOnCtrlC: false,
      patchConsole: true,
    },
  );
  try {
    await Promise.race([exited, instance.waitUntilExit()]);
  } finally {
    io.signal.removeEventListener("abort", onSignal);
    controller.dispose();
    instance.unmount();
    store.dispose();
    await manager.close();
    trace.close();
  }
  return ExitCode.ok;
}
