import type { Readable, Writable } from "node:stream";

/** The process's outside world, injected so commands run the same in tests and for real. */
export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Aborts when the user presses Ctrl+C or the process is told to stop. */
  signal: AbortSignal;
}

export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Reads one line typed at the terminal (cooked mode: the terminal echoes and edits it), then
 * leaves stdin paused with no listeners. node:readline is not used here because it leaves stdin
 * in a state where Ink, started afterwards, never receives a key.
 */
export function readLineFromTerminal(stdin: Readable, signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    let buffer = "";
    const finish = (line: string | undefined): void => {
      stdin.off("data", onData);
      stdin.off("end", onEnd);
      signal.removeEventListener("abort", onEnd);
      stdin.pause();
      resolve(line);
    };
    const onData = (chunk: Buffer | string): void => {
      buffer += chunk.toString();
      const newline = buffer.indexOf("\n");
      if (newline !== -1) finish(buffer.slice(0, newline).replace(/\r$/, ""));
    };
    const onEnd = (): void => finish(undefined);
    if (signal.aborted) {
      resolve(undefined);
      return;
    }
    stdin.on("data", onData);
    stdin.once("end", onEnd);
    signal.addEventListener("abort", onEnd, { once: true });
  });
}
