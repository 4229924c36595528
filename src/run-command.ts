import { parseArgs, type CliArgs } from "./args/index.js";
import type { CliIo } from "./common/cli-io.js";
import { ExitCode, McptermError, UsageError, errorMessage, exitCodeForStop } from "./core/errors.js";
import { SecretRedactor } from "./core/policy/redact-secrets.js";
import { sanitizeForTerminal, sanitizeOneLine } from "./core/policy/sanitize-terminal.js";
import { MCPTERM_VERSION } from "./core/version.js";
import { guardedOutput } from "./headless/guarded-output.js";
import { capSentence, MAX_SENTENCE_CHARS } from "./core/text/cap-sentence.js";

/**
 * Parses `argv`, runs the one command it names and returns the exit code; every error becomes
 * one sentence on `io.stderr`. Touches the process only through `io`, so tests run it in-process.
 */
export async function runCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const debug = argv.includes("--debug");
  let code: number;
  try {
    const args = await parseArgs(argv, MCPTERM_VERSION);
    code = await dispatch(args, speaksProtocolOrDraws(args, io) ? io : guardedOutput(io));
  } catch (error) {
    code = report(error, debug, io);
  }
  // Stopped by a signal: say so the way shells do (130, 143, 129), whatever the command made of it.
  return io.signal.aborted ? exitCodeForStop(io.signal) : code;
}

/** Each command is imported when it runs, so `--version` or `kb search` never load Ink or the SDK. */
async function dispatch(args: CliArgs, io: CliIo): Promise<number> {
  switch (args.command) {
    case "print":
      io.stdout.write(`${args.text}\n`);
      return ExitCode.ok;
    case "prompt":
      return (await import("./headless/prompt-command.js")).runPromptCommand(args, io);
    case "interactive":
      if (!io.stdin.isTTY) {
        return (await import("./headless/prompt-command.js")).runPromptCommand(pipedPrompt(args), io);
      }
      if (args.oneShotFlags.length > 0) {
        throw new UsageError(
          `${args.oneShotFlags.join(", ")} only ${args.oneShotFlags.length === 1 ? "applies" : "apply"} to one-shot runs; ` +
            'add -p "<question>" (or pipe the question in), or leave them out for the interactive assistant.',
        );
      }
      return (await import("./ui/app/run-interactive.js")).runInteractive(args, io);
    case "tools":
      return (await import("./headless/tools-command.js")).runToolsCommand(args, io);
    case "call":
      return (await import("./headless/call-command.js")).runCallCommand(args, io);
    case "kb":
      return (await import("./headless/kb-command.js")).runKbCommand(args, io);
    case "read":
      return (await import("./headless/read-command.js")).runReadCommand(args, io);
    case "resources":
    case "prompts":
      return (await import("./headless/catalog-command.js")).runCatalogCommand(args, io);
    case "trace":
      return (await import("./headless/trace-command.js")).runTraceCommand(args, io);
    case "serve":
      return (await import("./headless/serve-command.js")).runServeCommand(args, io);
    case "auth":
      return (await import("./headless/auth-command.js")).runAuthCommand(args, io);
    case "replay":
      return (await import("./headless/replay-command.js")).runReplayCommand(args, io);
    case "dev":
      return (await import("./headless/dev-command.js")).runDevCommand(args, io);
    case "doctor":
      return (await import("./headless/doctor-command.js")).runDoctorCommand(args, io);
  }
}

/**
 * Whether the command's output is not text for a person: `serve` speaks JSON-RPC on stdout, and
 * the TUI draws with escape sequences of its own (its views sanitize what they draw). Everything
 * else goes out through guardedOutput.
 */
function speaksProtocolOrDraws(args: CliArgs, io: CliIo): boolean {
  return args.command === "serve" || (args.command === "interactive" && io.stdin.isTTY === true);
}

/** `echo question | mcpterm` is a one-shot run on the piped text, with the one-shot flags given. */
function pipedPrompt(
  args: Extract<CliArgs, { command: "interactive" }>,
): Extract<CliArgs, { command: "prompt" }> {
  const { oneShot, oneShotFlags: _given, ...session } = args;
  return { ...session, ...oneShot, command: "prompt", prompt: "-" };
}

function report(error: unknown, debug: boolean, io: CliIo): number {
  // The last guard on the way out: secret patterns and the environment's secrets, whatever the
  // message quotes (commands redact what they know of before this too).
  const redactor = SecretRedactor.forSession([], io.env);
  const oneLine = (text: string): string => sanitizeOneLine(redactor.redactText(text));
  const clean = (text: string): string =>
    debug ? oneLine(text) : capSentence(oneLine(cutFirst(text)), "; --debug shows it all");
  if (error instanceof McptermError) {
    // Messages can quote a server's stderr or error text: never let it drive the terminal.
    io.stderr.write(`mcpterm: ${clean(error.message)}\n`);
    // A stack trace quotes the same message, and the server's file names: stripped alike.
    if (debug && error.stack) io.stderr.write(`${sanitizeForTerminal(redactor.redactText(error.stack))}\n`);
    return error.exitCode;
  }
  io.stderr.write(
    debug && error instanceof Error && error.stack
      ? `mcpterm: internal error: ${sanitizeForTerminal(redactor.redactText(error.stack))}\n`
      : `mcpterm: internal error: ${clean(errorMessage(error))} (run with --debug for the stack trace)\n`,
  );
  return ExitCode.runtime;
}

/** The part of a message worth redacting at all: what is past it is never shown (see capSentence). */
function cutFirst(text: string): string {
  return text.length > MAX_SENTENCE_CHARS * 4 ? text.slice(0, MAX_SENTENCE_CHARS * 4) : text;
}
