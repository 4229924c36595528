import type { CliIo } from "./common/cli-io.js";
import { stdinSource } from "./common/stdin-source.js";
import { terminalHandedOver } from "./common/terminal-handover.js";
import { startsInteractive } from "./early-frame-gate.js";
import {
  ExitCode,
  OUTPUT_CLOSED,
  STOP_SIGNALS,
  exitCodeForStop,
  type StopReason,
  type StopSignal,
} from "./core/errors.js";
import { quickAnswer } from "./quick-answers.js";
import { guardLibraryConsole } from "./common/library-console.js";
import { MCPTERM_VERSION } from "./core/version.js";

/**
 * The process: binds the real stdin/stdout, environment and signals to one command run, and the
 * only place that exits. src/cli.tsx loads it once the compile cache is on.
 */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const stop = new AbortController();
  const onStop = (reason: StopReason): void => {
    // Ctrl+C in an external editor reaches mcpterm too; it is the editor's key.
    if (reason === "SIGINT" && terminalHandedOver()) return;
    // A second signal means "now": the exit hook still stops every server's process group.
    if (stop.signal.aborted) process.exit(exitCodeForStop(stop.signal));
    stop.abort(reason);
  };
  // The reader of the output went away (`mcpterm call … --json | head`): the rest has nowhere to
  // go. Stopped as a signal stops a run, with no word (there is nowhere to say it) and no stack.
  const onOutputClosed = (): void => onStop(OUTPUT_CLOSED);
  process.stdout.on("error", onOutputClosed);
  process.stderr.on("error", onOutputClosed);
  const quick = quickAnswer(argv);
  if (quick !== undefined) {
    process.stdout.write(`${quick}\n`, (error) =>
      process.exit(error ? ExitCode.outputClosed : exitCode(ExitCode.ok)),
    );
    return;
  }
  guardLibraryConsole(argv.includes("--debug"), process.stderr);
  // SIGHUP is a closed terminal or a dropped ssh session: stop the servers like any other signal.
  for (const signal of Object.keys(STOP_SIGNALS) as StopSignal[]) process.on(signal, onStop);

  const io: CliIo = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdinSource: stdinSource(),
    env: process.env,
    cwd: process.cwd(),
    signal: stop.signal,
  };
  // The prompt is on screen before the parser, Ink and the TUI load (most of the start).
  if (startsInteractive(argv, process.stdin.isTTY && process.stdout.isTTY)) {
    const { drawEarlyFrame } = await import("./ui/terminal/early-frame.js");
    await drawEarlyFrame(process.stdin, process.stdout, process.stderr, {
      status: `mcpterm ${MCPTERM_VERSION} · starting · servers connect once the prompt is ready`,
      color: !process.env.NO_COLOR,
    });
  }
  // Loaded only now, so --version and --help never pay for the parser and the commands.
  const { runCommand } = await import("./run-command.js");
  const code = await runCommand(argv, io);
  // A write that failed as the command ended (its whole output in one synchronous write) comes
  // here before the stream's error event does.
  process.stdout.write("", (error) => process.exit(error ? ExitCode.outputClosed : exitCode(code)));

  /** The command's code, unless the run was stopped since (its output closed as it ended). */
  function exitCode(code: number): number {
    return stop.signal.aborted ? exitCodeForStop(stop.signal) : code;
  }
}

await main();
