import type { Readable, Writable } from "node:stream";
import { ReadStream } from "node:tty";
import type { PageNetwork } from "./page-fetcher.js";
import type { StdinSource } from "./stdin-source.js";

/** The process's outside world, injected so commands run the same in tests and for real. */
export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable & { isTTY?: boolean };
  /** What stdin is, when it is the process's own (see stdin-source.ts); absent, nothing on it goes with `-p <text>`. */
  stdinSource?: StdinSource;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Aborts when the user presses Ctrl+C or the process is told to stop. */
  signal: AbortSignal;
  /**
   * How `kb add <url>` reaches the web; the real network when absent. Set only in code (tests
   * serve a page from a local server under a public-looking name), never from outside.
   */
  network?: PageNetwork;
}

/** Settles (with nothing) once `signal` is aborted: at once if it already is. */
export function aborted(signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(undefined);
    else signal.addEventListener("abort", () => resolve(undefined), { once: true });
  });
}

export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * How long after a question is shown its answer is not taken: lines that arrive sooner were typed
 * before it appeared (waiting in the terminal's buffer, or part of something else being typed),
 * and a "y" among them must not answer a question nobody has read.
 */
export const ANSWER_GUARD_MS = 500;

/** Said when lines typed before a question were thrown away. */
export const TYPED_AHEAD_NOTE = "\n(what was typed before this question was ignored; answer now) ";

export interface AnswerOptions {
  /** Told each time early lines are thrown away, so the person knows to answer again. */
  onIgnored?: () => void;
  guardMs?: number;
  now?: () => number;
  /**
   * The keys already waiting when the question is shown, typed for what comes after it (the
   * TUI's prompt, drawn before the question): what of them to give back to stdin once the
   * question is answered, and whether some were thrown away (then told, as above). Without it,
   * they are early lines like any other.
   */
  setAside?: (keys: string) => SetAside;
}

export interface SetAside {
  giveBack: string;
  ignoredSome: boolean;
}

/**
 * Reads one line typed at the terminal (cooked mode: the terminal echoes and edits it, so a
 * terminal left raw to keep keys typed ahead off the screen is put back in it), then leaves
 * stdin paused with no listeners. Lines that arrive within `guardMs` of the question, or
 * of a line already ignored, are thrown away (see ANSWER_GUARD_MS). node:readline is not used
 * here because it leaves stdin in a state where Ink, started afterwards, never receives a key.
 */
export function readLineFromTerminal(
  stdin: Readable,
  signal: AbortSignal,
  options: AnswerOptions = {},
): Promise<string | undefined> {
  const now = options.now ?? (() => performance.now());
  const guardMs = options.guardMs ?? ANSWER_GUARD_MS;
  let guardFrom = now();
  const wasRaw = stdin instanceof ReadStream && stdin.isRaw;
  const waiting = options.setAside ? readWaiting(stdin) : "";
  const aside = waiting === "" ? undefined : options.setAside?.(waiting);
  if (aside?.ignoredSome) options.onIgnored?.();
  return new Promise((resolve) => {
    let buffer = "";
    const finish = (line: string | undefined): void => {
      stdin.off("data", onData);
      stdin.off("end", onEnd);
      signal.removeEventListener("abort", onEnd);
      stdin.pause();
      // Answered: the keys set aside go back, read as they were typed (raw, never echoed).
      // Unanswered (Ctrl+C, the end of input), the person is done with them too.
      if (line !== undefined && aside !== undefined && aside.giveBack !== "") {
        if (wasRaw && stdin instanceof ReadStream) stdin.setRawMode(true);
        stdin.unshift(Buffer.from(aside.giveBack));
      }
      resolve(line);
    };
    const onData = (chunk: Buffer | string): void => {
      const at = now();
      if (at - guardFrom < guardMs) {
        // Typed ahead: dropped whole, and the guard runs on from here, as long as typing goes on.
        guardFrom = at;
        buffer = "";
        // Said each time, so a person whose answer was dropped knows to give it again.
        options.onIgnored?.();
        return;
      }
      buffer += chunk.toString();
      const newline = buffer.indexOf("\n");
      if (newline !== -1) finish(buffer.slice(0, newline).replace(/\r$/, ""));
    };
    const onEnd = (): void => finish(undefined);
    // An input that already ended answers nothing, and would never say so again.
    if (signal.aborted || stdin.readableEnded) {
      resolve(undefined);
      return;
    }
    if (stdin instanceof ReadStream && stdin.isRaw) stdin.setRawMode(false);
    stdin.on("data", onData);
    // A listener alone does not restart a stream an earlier question paused (`--resume`'s picker,
    // then the trust question): nothing would read the answer, and the process would end waiting.
    stdin.resume();
    stdin.once("end", onEnd);
    signal.addEventListener("abort", onEnd, { once: true });
  });
}

/** What stdin holds already (keys handed back to it, or read and not yet taken), taken now. */
function readWaiting(stdin: Readable): string {
  const chunks: Buffer[] = [];
  let chunk: unknown;
  while ((chunk = stdin.read()) !== null)
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
