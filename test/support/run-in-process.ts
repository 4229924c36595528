import { Readable, Writable } from "node:stream";
import type { CliIo } from "../../src/common/cli-io.js";
import type { PageNetwork } from "../../src/common/page-fetcher.js";
import { runCommand } from "../../src/run-command.js";

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  cwd: string;
  /** The whole environment the command sees (use cleanEnv: never the developer's settings). */
  env: NodeJS.ProcessEnv;
  /** Piped stdin; stdin is never a terminal here. */
  input?: string;
  /** Aborting it is what a signal does to the real binary; its reason names the signal ("SIGTERM"). */
  signal?: AbortSignal;
  /** Sees each piece of stdout as it is written, e.g. to interrupt the run mid-answer. */
  onStdout?: (chunk: string) => void;
  /** How `kb add <url>` reaches pages (see CliIo.network); the real network when absent. */
  network?: PageNetwork;
}

/**
 * Runs one mcpterm command inside the test process through `runCommand`, the same entry the
 * binary calls, with captured output: like `runCli` without the cost of starting node and
 * loading every module again. The servers it starts are still real processes.
 */
export async function runInProcess(args: string[], options: InProcessOptions): Promise<InProcessRun> {
  const stdout = capture(options.onStdout);
  const stderr = capture();
  const io: CliIo = {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from(options.input === undefined ? [] : [options.input]),
    env: options.env,
    cwd: options.cwd,
    signal: options.signal ?? new AbortController().signal,
    ...(options.network ? { network: options.network } : {}),
  };
  const code = await runCommand(args, io);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** A stream that keeps what is written to it, synchronously, so nothing is pending when the run ends. */
function capture(onChunk?: (chunk: string) => void): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      const piece = chunk.toString();
      text += piece;
      onChunk?.(piece);
      done();
    },
  });
  return { stream, text: () => text };
}
