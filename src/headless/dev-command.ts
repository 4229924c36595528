import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { CliArgs } from "../args/index.js";
import type { CliIo } from "../common/cli-io.js";
import { loadCommandConfig } from "../common/load-project-config.js";
import { parseArguments } from "../core/agent/resolve-tool-call.js";
import type { ServerConfig } from "../core/config/index.js";
import { ExitCode, UsageError } from "../core/errors.js";
import { formatLogEntry } from "../core/mcp/server-log.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { sessionRedactor } from "../core/session/session-redactor.js";
import { readRecordedCalls } from "../core/trace/read-calls.js";
import type { DevCall } from "./dev-calls.js";
import { DevLoop } from "./dev-loop.js";
import { watchPaths } from "./file-watch.js";
import { stdoutNoiseWarning } from "./call-findings.js";
import { loadIgnorePaths } from "./replay-setup.js";
import { commandManager, requireServerConfig } from "./with-one-server.js";

type DevArgs = Extract<CliArgs, { command: "dev" }>;

/** How long a server gets to stop on its own before its process group is signalled. */
const STOP_GRACE_MS = 1000;

/**
 * `mcpterm dev <server>`: starts one server of the config and keeps it under test while it is
 * edited: its stderr and log messages stream to the screen, marked by server; every change to
 * the files it runs from (or `--watch`) restarts it — its whole process group stopped first —
 * and shows what changed in its tools, the lint, and the saved calls' and replay's answers.
 * Ctrl+C stops it and the server with it; typing `r` and Enter restarts it by hand.
 */
export async function runDevCommand(args: DevArgs, io: CliIo): Promise<ExitCode> {
  const config = await loadCommandConfig(args.common, io);
  const server: ServerConfig = { ...requireServerConfig(config, args.server), disabled: false };
  const watched =
    args.watch.length > 0
      ? args.watch.map((file) => path.resolve(io.cwd, file))
      : filesNamedBy(server, io.cwd);
  for (const file of watched)
    if (!existsSync(file)) throw new UsageError(`--watch ${file}: there is no such file or folder.`);
  if (watched.length === 0)
    throw new UsageError(
      `The command line of "${server.name}" (${[server.command ?? server.url ?? "", ...server.args].join(" ")}) names no file to watch; give one with --watch <file or folder>.`,
    );
  const ignore = await loadIgnorePaths(args, io);
  const replay =
    args.replay === undefined
      ? []
      : (await readRecordedCalls(path.resolve(io.cwd, args.replay))).calls.filter(
          (call) => call.server === server.name,
        );
  if (args.replay !== undefined && replay.length === 0)
    throw new UsageError(`${args.replay} holds no calls to server "${server.name}" to replay.`);

  const redactor = sessionRedactor(config, io.env);
  const say = (line: string): void =>
    void io.stdout.write(`${sanitizeForTerminal(redactor.redactText(line))}\n`);
  const manager = await commandManager({ config, common: args.common }, [server], io, redactor, {
    onStderr: (name, line) => say(`[${name}] ${line}`),
    // Every line, not only the first few: each start is a new chance to see the bug fixed.
    onStdoutNoise: (name, line, leftByExit) => say(stdoutNoiseWarning(name, line, 1, leftByExit) ?? line),
    onLog: (entry) => say(`[${entry.server}] ${formatLogEntry(entry)}`),
    shutdownGraceMs: STOP_GRACE_MS,
  });
  const loop = new DevLoop(
    manager,
    {
      server: server.name,
      logLevel: args.logLevel,
      calls: args.calls.map(readCall),
      replay,
      yes: args.yes,
      allowSecretArguments: args.allowSecretArguments,
      ignore,
      slowFactor: args.slowFactor,
      slowMs: args.slowMs,
    },
    { io, redactor, say },
  );
  const shown = watched.map((file) => path.relative(io.cwd, file) || ".").join(", ");
  say(`dev: starting ${server.name}; watching ${shown}; type r and Enter to restart, Ctrl+C to stop`);
  const watcher = watchPaths(
    watched,
    (file) => loop.changed(path.relative(io.cwd, file) || file),
    (message) => say(`dev: ${message}`),
  );
  const stopTyping = restartsTyped(io, () => loop.changed("(by hand)"));
  try {
    await loop.start();
    await stopped(io.signal);
    return ExitCode.interrupted;
  } finally {
    stopTyping();
    watcher.close();
    await loop.idle();
    await manager.close();
  }
}

/**
 * The files a server runs from, as its command line names them: the arguments that are files
 * (`server.js`, `--config=app.json`), and the command when it is a relative path to one
 * (`./server.py`); an interpreter such as /usr/bin/node is not the server's code.
 */
export function filesNamedBy(server: ServerConfig, cwd: string): string[] {
  const base = server.cwd ?? cwd;
  const words = [
    ...(server.command !== undefined && /[\\/]/.test(server.command) && !path.isAbsolute(server.command)
      ? [server.command]
      : []),
    ...server.args.map((arg) => (/^--?[\w-]+=/.test(arg) ? arg.slice(arg.indexOf("=") + 1) : arg)),
  ];
  const files = words
    .filter((word) => word !== "" && !word.startsWith("-"))
    .map((word) => path.resolve(base, word))
    .filter((file) => {
      try {
        return statSync(file).isFile();
      } catch {
        return false;
      }
    });
  return [...new Set(files)];
}

function readCall(call: { tool: string; arguments: string | undefined }): DevCall {
  const parsed = parseArguments(call.arguments ?? "");
  if (!parsed.ok)
    throw new UsageError(`--call ${call.tool}: the arguments are not a JSON object: ${parsed.error}.`);
  return { tool: call.tool, arguments: parsed.value };
}

/** `r` + Enter restarts the server; anything else typed is answered with how to. */
function restartsTyped(io: CliIo, restart: () => void): () => void {
  let buffer = "";
  const onData = (chunk: Buffer | string): void => {
    buffer += chunk.toString();
    let newline = buffer.indexOf("\n");
    while (newline !== -1) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line === "r" || line === "rs") restart();
      else if (line !== "") io.stdout.write("dev: type r and Enter to restart the server, Ctrl+C to stop\n");
      newline = buffer.indexOf("\n");
    }
  };
  io.stdin.on("data", onData);
  return () => {
    io.stdin.off("data", onData);
    io.stdin.pause();
  };
}

function stopped(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
