import { PassThrough } from "node:stream";

/**
 * A CliIo for a question asked at a terminal, in memory: stdin says it is a TTY (piped stdin
 * would be nobody to ask), stderr knows the window's width when given one (a pipe's does not),
 * and everything written to stderr is kept. `stop` aborts the io's signal, as Ctrl+C does.
 */
export function terminalIo(options: { columns?: number } = {}): {
  io: {
    stdin: PassThrough & { isTTY: true };
    stdout: PassThrough;
    stderr: PassThrough;
    env: NodeJS.ProcessEnv;
    cwd: string;
    signal: AbortSignal;
  };
  stop: AbortController;
  shown: () => string;
} {
  const stdin = Object.assign(new PassThrough(), { isTTY: true as const });
  const stderr = Object.assign(
    new PassThrough(),
    options.columns === undefined ? {} : { columns: options.columns },
  );
  let shown = "";
  stderr.setEncoding("utf8").on("data", (chunk: string) => (shown += chunk));
  const stop = new AbortController();
  return {
    io: { stdin, stdout: new PassThrough(), stderr, env: {}, cwd: "/p", signal: stop.signal },
    stop,
    shown: () => shown,
  };
}
