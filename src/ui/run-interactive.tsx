import { ReadStream, WriteStream } from "node:tty";
import { render } from "ink";
import type { CliArgs } from "../args.js";
import { CompositeToolHost } from "../core/agent/composite-tool-host.js";
import { openSessionServices } from "../core/agent/session-services.js";
import { Session } from "../core/agent/session.js";
import { resolveModelSettings } from "../core/config/index.js";
import { errorMessage, ExitCode, UsageError } from "../core/errors.js";
import { createOpenAiChatModel } from "../core/llm/openai-chat-model.js";
import type { CliIo } from "../common/cli-io.js";
import { loadProjectConfig } from "../common/load-project-config.js";
import { openFreshKnowledge } from "../common/open-knowledge.js";
import { UserSettings } from "../core/config/user-settings.js";
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

  const services = openSessionServices({
    config,
    servers,
    userSettings,
    apiKeys: [args.modelArgs.apiKey, io.env.OPENAI_API_KEY, io.env.ARK_API_KEY],
    env: io.env,
    cwd: io.cwd,
    traceFile: args.trace,
    model: args.modelArgs.model ?? io.env.MCPTERM_MODEL ?? config.model.name ?? "unset",
  });
  const { manager, redact, trace } = services;
  if (services.ignoredAutoTiers.length > 0) {
    dispatch({
      type: "ui_notice",
      level: "warning",
      text: `approval.auto in ${config.path ?? "the config"} lists ${services.ignoredAutoTiers.join(", ")}; risky tiers always ask here.`,
    });
  }

  const kbEnabled = args.kb && config.kb.enabled;
  const knowledge = new LazyKnowledge(
    kbEnabled
      ? { state: "loading" }
      : { state: "off", reason: "The knowledge base is turned off (--no-kb, or kb.enabled in the config)." },
    config.kb.topK,
    redact,
  );
  const tools = new CompositeToolHost([knowledge, services.mcpTools]);

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
        approval: { auto: services.autoTiers, flagged: [] },
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
    await services.close();
  }
  return ExitCode.ok;
}
