import type { PipedBytes } from "../core/context/piped-text.js";
import { formatBytes } from "../core/text/index.js";
import { aborted, type CliIo } from "../common/cli-io.js";
import { PipedInput } from "../common/piped-input.js";

/** How long a pipe that has not ended keeps a run waiting before it is told what it waits for. */
const WAITING_NOTICE_MS = 3000;

/** How long a socket that has had text is given to end once the prompt is ready. */
const SOCKET_END_GRACE_MS = 250;

/** What was piped in, nothing, or a stop (Ctrl+C, a signal) while waiting for the pipe to end. */
export type PipedTake = PipedBytes | undefined | "interrupted";

/**
 * Text piped into a `-p <text>` run (`git diff | mcpterm -p "write the commit message"`), read
 * from the start of the run beside the servers' start and taken when the prompt is ready. A
 * shell's pipe or a file is waited for to its end (a build's log arrives as the build runs); a
 * socket, as Node's spawn hands one, is taken only if it had ended by then, since a spawn that
 * writes nothing often leaves it open. Undefined when stdin is a terminal or nothing to read.
 */
export function readPipedStdin(
  io: CliIo,
): { take(warn: (message: string) => void): Promise<PipedTake> } | undefined {
  const source = io.stdinSource;
  if (source !== "pipe" && source !== "socket") return undefined;
  const input = new PipedInput(io.stdin);
  input.start();
  return {
    async take(warn) {
      if (input.isComplete()) return input.bytes();
      if (source === "socket") {
        // What was written before mcpterm started is read in the event loop's next poll for I/O,
        // and its end (a read of its own) may be the poll after: a writer that wrote is given a
        // moment to end.
        await new Promise((resolve) => setImmediate(resolve));
        if (input.received > 0 && !input.isComplete()) await endedWithin(input, SOCKET_END_GRACE_MS);
        if (input.isComplete()) return input.bytes();
        input.stop();
        if (input.received > 0)
          warn(
            `stdin was still open when the prompt was ready, so the ${formatBytes(input.received)} written to it went unsent; close it once written to send it with the prompt, or pass the whole prompt with -p -.`,
          );
        else tellLateText(io, warn);
        return undefined;
      }
      const notice = setTimeout(() => {
        io.stderr.write(
          `mcpterm: waiting for what is piped into stdin to end (${formatBytes(input.received)} so far), to send it with the prompt; end it (Ctrl+D at a terminal), stop with Ctrl+C, or run again with < /dev/null to go without it.\n`,
        );
      }, WAITING_NOTICE_MS);
      try {
        const ended = await Promise.race([input.whenComplete().then(() => true), aborted(io.signal)]);
        if (!ended) {
          input.stop();
          return "interrupted";
        }
        return input.bytes();
      } finally {
        clearTimeout(notice);
      }
    },
  };
}

/** Settles when `input` is complete or `ms` have passed, whichever is first. */
async function endedWithin(input: PipedInput, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([input.whenComplete(), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * Text a program writes to stdin after a socket was found empty and open (it wrote late) is not
 * sent: said once, as it comes, so the run is not taken for one that read it.
 */
function tellLateText(io: CliIo, warn: (message: string) => void): void {
  io.stdin.once("data", () => {
    io.stdin.pause();
    warn(
      "text written to stdin after the prompt was ready went unsent (a program's stdin is not waited for); write and close it before mcpterm starts, or pass the whole prompt with -p -.",
    );
  });
  io.stdin.resume();
}
