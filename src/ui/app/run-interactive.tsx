import { ReadStream, WriteStream } from "node:tty";
import { render } from "ink";
import type { CliArgs } from "../../args/index.js";
import { ExitCode, UsageError } from "../../core/errors.js";
import { openSession } from "../../core/session/open-session.js";
import { findSavedSession, sessionSummaries } from "../../core/session/resume-session.js";
import { SessionMarks } from "../../core/session/session-mark.js";
import type { SavedSession } from "../../core/session/saved-session.js";
import type { CliIo } from "../../common/cli-io.js";
import { editInExternalEditor } from "../../common/external-editor.js";
import { withTerminalHandedOver } from "../../common/terminal-handover.js";
import { terminalPerson } from "../../common/terminal-person.js";
import { sessionRequest } from "../../common/session-request.js";
import { App } from "./App.js";
import { clearTerminal, redrawTerminal } from "../terminal/clear-terminal.js";
import { imageProtocol } from "../terminal/inline-image.js";
import { NOTHING_PICKED, pickSessionAtTerminal } from "./session-picker.js";
import { ThemeContext, themeFor } from "../parts/theme.js";
import { MCPTERM_VERSION } from "../../core/version.js";
import { resumeLine, welcomeLine } from "./start-and-end-lines.js";
import { TranscriptStore } from "../transcript/transcript-store.js";
import { TuiController } from "./tui-controller.js";
import { captureTypeAhead } from "../terminal/type-ahead.js";
import { draftAside } from "../keys/typed-keys.js";
import { withTerminalGivenAway } from "../terminal/terminal-reclaim.js";
import { withoutTerminalReplies } from "../terminal/terminal-input.js";
import { eraseFrameOnNarrowing, inkFrameReader } from "../terminal/reflow-erase.js";
import { pageFetcher } from "../../common/page-fetcher.js";
import { idleMemoryRelease, memoryReducingCollector } from "../terminal/idle-memory.js";
import { kbSummaryOf } from "./kb-summary.js";

type InteractiveArgs = Extract<CliArgs, { command: "interactive" }>;

/** Said when a paste was ended for the person (terminal-input.ts): why Enter adds a line for now. */
const UNENDED_PASTE =
  "A paste did not end (the terminal never sent its end marker); what came is in the prompt. Until the end arrives, what comes is added as pasted text and Enter adds a line: press Esc to type as usual.";

/**
 * `mcpterm` on a terminal: the core builds the session (asking once whether to trust the
 * project's config), the prompt is drawn at once while the servers connect and the knowledge base
 * indexes in the background, and it runs until the person exits. Returns the exit code.
 */
/** Back to the row's start, the row erased. */
const ERASE_ROW = "\r\u001b[2K";

export async function runInteractive(args: InteractiveArgs, io: CliIo): Promise<number> {
  const { stdin, stdout } = io;
  if (!(stdin instanceof ReadStream) || !(stdout instanceof WriteStream)) {
    throw new UsageError(
      "The interactive assistant needs a terminal on stdin and stdout; for scripts use mcpterm -p <text>.",
    );
  }
  // Keys typed so far leave the screen before anything is printed under their echo.
  await captureTypeAhead(stdin, stdout);
  // The session to go on with is found (or picked) first: one that cannot be resumed stops here.
  const resumed = await savedSessionFor(args.resume, io, stdout.columns);
  // Ctrl+C or Ctrl+D at the picker: the person is done before anything started.
  if (resumed === NOTHING_PICKED) return ExitCode.ok;
  // A person answers every question here, so no flag approves anything in advance.
  const mode = { approve: [], interactive: true, allowSecretArguments: false, allowSampling: false };
  const runtime = await openSession(sessionRequest(args, mode), io, {
    // Keys typed into the early frame are the prompt's: its draft is there again after the answer.
    person: terminalPerson(io, { typedAhead: draftAside }),
    signal: io.signal,
  });
  // Stopped while starting (Ctrl+C in the early frame is a SIGINT too): no TUI to take down.
  if (io.signal.aborted) {
    await runtime.close();
    return ExitCode.ok;
  }
  const store = new TranscriptStore();
  const { dispatch } = store;
  dispatch({
    type: "ui_notice",
    level: "info",
    text: welcomeLine({
      version: MCPTERM_VERSION,
      model: runtime.modelProblem ? undefined : runtime.modelFor().model,
      cwd: io.cwd,
      home: io.env.HOME,
      servers: runtime.config.servers.filter((server) => !server.disabled).length,
    }),
  });
  for (const notice of runtime.notices) dispatch({ type: "ui_notice", ...notice });

  let exit: () => void = () => undefined;
  const exited = new Promise<void>((resolve) => {
    exit = resolve;
  });
  let clearScreen: () => void = () => undefined;
  let redrawScreen: () => void = () => undefined;
  const controller = new TuiController({
    dispatch,
    runtime,
    cwd: io.cwd,
    images: imageProtocol(io.env),
    onExit: () => exit(),
    clearScreen: () => clearScreen(),
    redrawScreen: () => redrawScreen(),
    fetchPage: pageFetcher(io.network),
    ...(resumed ? { resumed } : {}),
    // Counted as handed over from raw mode off to raw mode on (Ink's suspend), not just while the
    // editor runs: a Ctrl+C typed as it closes is a signal until the TUI has the keys again.
    // What the editor left on its last row is erased before Ink draws again: Ink starts its frame
    // where the cursor is, and after the terminal's `^C` echo of a Ctrl+C that stopped the editor
    // the frame's first row was drawn beside it and left behind as a broken border.
    editText: (text, suspend) =>
      editInExternalEditor(text, io.env, (run) =>
        withTerminalHandedOver(() =>
          suspend(() => withTerminalGivenAway(stdin, run).finally(() => stdout.write(ERASE_ROW))),
        ),
      ),
  });

  // Neither servers nor the index are awaited: the prompt is usable while they come up. They
  // start once the first frame is out, so spawning servers and reading the index never delay it.
  const startInBackground = (): void => {
    const started = runtime.start();
    void started.servers.then(() => controller.onServersSettled());
    if (runtime.knowledge.access().state !== "loading") return;
    dispatch({ type: "ui_kb", kb: { state: "loading" } });
    void started.knowledge.then((access) => {
      dispatch({ type: "ui_kb", kb: kbSummaryOf(access) });
      if (access.state === "off") dispatch({ type: "ui_notice", level: "warning", text: access.reason });
    });
  };

  const onSignal = (): void => exit();
  io.signal.addEventListener("abort", onSignal, { once: true });
  await captureTypeAhead(stdin, stdout);
  const tree = (
    <ThemeContext.Provider value={themeFor(io.env)}>
      <App
        store={store}
        controller={controller}
        onExit={() => exit()}
        history={inputHistory(runtime, resumed)}
      />
    </ThemeContext.Provider>
  );
  const instance = render(tree, {
    stdout,
    stdin: withoutTerminalReplies(stdin, (owed) => {
      if (owed) dispatch({ type: "ui_notice", level: "warning", text: UNENDED_PASTE });
      dispatch({ type: "ui_paste_owed", owed });
    }),
    exitOnCtrlC: false,
    // Libraries' console output is dropped or redacted before it could reach Ink (library-console.ts).
    patchConsole: false,
  });
  clearScreen = () => clearTerminal(instance, stdout);
  redrawScreen = () => redrawTerminal(instance, stdout, tree);
  const background = setImmediate(startInBackground);
  // Keys (a "readable" listener only hears of them; Ink still reads them) and transcript changes.
  const release = idleMemoryRelease(memoryReducingCollector(), {
    busy: () => store.getState().turn !== undefined,
  });
  const stopHearingTranscript = store.subscribe(release.activity);
  stdin.on("readable", release.activity);
  const stopReflowErase = eraseFrameOnNarrowing(io.env, stdout, instance, {
    frame: inkFrameReader(stdout),
  });
  try {
    await Promise.race([exited, instance.waitUntilExit()]);
  } finally {
    clearImmediate(background);
    stdin.off("readable", release.activity);
    stopHearingTranscript();
    release.dispose();
    io.signal.removeEventListener("abort", onSignal);
    stopReflowErase();
    controller.dispose();
    instance.unmount();
    store.dispose();
    await runtime.close();
  }
  const saved = resumeLine(controller.savedSessionId);
  if (saved) stdout.write(`${saved}\n`);
  return ExitCode.ok;
}

/** --continue, --resume <id>, or --resume alone (the person picks from a list), as a saved session. */
async function savedSessionFor(
  choice: InteractiveArgs["resume"],
  io: CliIo,
  columns: number,
): Promise<SavedSession | undefined | typeof NOTHING_PICKED> {
  if (!choice) return undefined;
  const marks = SessionMarks.forEnv(io.env);
  if (choice.kind !== "pick") return findSavedSession(io.cwd, choice, marks);
  const id = await pickSessionAtTerminal(io, await sessionSummaries(io.cwd), columns);
  return id === undefined || id === NOTHING_PICKED ? id : findSavedSession(io.cwd, { kind: "id", id }, marks);
}

/**
 * What ↑ recalls at start: what was sent in this folder before, and the messages of the session
 * going on (--continue, --resume) that the project's history does not hold (it came from elsewhere,
 * or the history was cleared).
 */
function inputHistory(
  runtime: { inputHistory: { load(): string[] } },
  resumed: SavedSession | undefined,
): string[] {
  const entries = runtime.inputHistory.load();
  const known = new Set(entries);
  for (const turn of resumed?.turns ?? []) if (!known.has(turn.input)) entries.push(turn.input);
  return entries;
}
