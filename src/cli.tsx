#!/usr/bin/env node
import { parseArgs, type CliArgs } from "./args.js";
import { ExitCode, McptermError, errorMessage } from "./core/errors.js";
import { sanitizeForTerminal } from "./core/policy/sanitize-terminal.js";
import { MCPTERM_VERSION } from "./core/version.js";
import { runCallCommand } from "./headless/call-command.js";
import { runKbCommand } from "./headless/kb-command.js";
import { runReadCommand } from "./headless/read-command.js";
import { runServeCommand } from "./headless/serve-command.js";
import { runTraceCommand } from "./headless/trace-command.js";
import type { CliIo } from "./common/cli-io.js";
import { runPromptCommand } from "./headless/prompt-command.js";
import { runToolsCommand } from "./headless/tools-command.js";

/** The entry point, and the only place that turns errors into messages and exit codes. */
async function main(): Promise<void> {
  const interrupt = new AbortController();
  let interrupts = 0;
  const onSignal = (): void => {
    interrupts += 1;
    // A second Ctrl+C means "now": the exit hook still stops every server's process group.
    if (interrupts > 1) process.exit(130);
    interrupt.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  // A closed terminal or a dropped ssh session: stop the servers like any other interrupt.
  process.on("SIGHUP", onSignal);

  const argv = process.argv.slice(2);
  const debug = argv.includes("--debug");
  const io: CliIo = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    signal: interrupt.signal,
  };
  let code: number;
  try {
    code = await dispatch(await parseArgs(argv, MCPTERM_VERSION), io);
  } catch (error) {
    code = report(error, debug);
  }
  if (interrupt.signal.aborted && code === ExitCode.ok) code = 130;
  process.stdout.write("", () => process.exit(code));
}

async function dispatch(args: CliArgs, io: CliIo): Promise<number> {
  switch (args.command) {
    case "print":
      io.stdout.write(`${args.text}\n`);
      return ExitCode.ok;
    case "prompt":
      return runPromptCommand(args, io);
    case "interactive":
      if (!io.stdin.isTTY) return runPromptCommand(pipedPrompt(args), io);
      // Loaded on demand so one-shot runs and subcommands do not pay for Ink and React.
      return (await import("./ui/run-interactive.js")).runInteractive(args, io);
    case "tools":
      return runToolsCommand(args, io);
    case "call":
      return runCallCommand(args, io);
    case "kb":
      return runKbCommand(args, io);
    case "read":
      return runReadCommand(args, io);
    case "trace":
      return runTraceCommand(args, io);
    case "serve":
      return runServeCommand(args, io);
  }
}

/** `echo question | mcpterm` is a one-shot run on the piped text. */
function pipedPrompt(
  args: Extract<CliArgs, { command: "interactive" }>,
): Extract<CliArgs, { command: "prompt" }> {
  return { ...args, command: "prompt", prompt: "-", output: "text", approve: [], yes: false };
}

function report(error: unknown, debug: boolean): number {
  if (error instanceof McptermError) {
    // Messages can quote a server's stderr or error text: never let it drive the terminal.
    process.stderr.write(`mcpterm: ${sanitizeForTerminal(error.message)}\n`);
    if (debug && error.stack) process.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  process.stderr.write(
    debug && error instanceof Error && error.stack
      ? `mcpterm: internal error: ${error.stack}\n`
      : `mcpterm: internal error: ${sanitizeForTerminal(errorMessage(error))} (run with --debug for the stack trace)\n`,
  );
  return ExitCode.runtime;
}

await main();
