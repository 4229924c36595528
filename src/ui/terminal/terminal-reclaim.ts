import type { ReadStream } from "node:tty";

/**
 * The part of Node's tty stream that reads the terminal. Node keeps reading a stream once it was
 * asked for data (until its buffer is full), whoever listens, so only the handle itself can be
 * told to stop: with the same `reading` flag and `readStop()` Node's own back-pressure uses, and
 * `readStart()` as Node's `_read` does on the way back.
 */
interface ReadingHandle {
  reading: boolean;
  readStop(): number;
  readStart(): number;
}

function readingHandle(stdin: ReadStream): ReadingHandle | undefined {
  const handle = (stdin as unknown as { _handle?: Partial<ReadingHandle> | null })._handle;
  if (
    handle &&
    typeof handle.reading === "boolean" &&
    typeof handle.readStop === "function" &&
    typeof handle.readStart === "function"
  )
    return handle as ReadingHandle;
  return undefined;
}

/**
 * Runs `run` (an external editor) with the terminal wholly its own, then takes it back. Ink has
 * already turned raw mode off and stopped listening; this also stops mcpterm's read of the
 * terminal, which would otherwise go on taking the keys and the terminal's answers the editor
 * waits for (and leave them in a buffer no one reads). Afterwards reading starts again, and Ink
 * turns raw mode back on and redraws; answers the terminal still sends the editor once it has
 * gone are dropped on their way to Ink (`withoutTerminalReplies`).
 */
export async function withTerminalGivenAway<T>(stdin: ReadStream, run: () => Promise<T>): Promise<T> {
  const handle = readingHandle(stdin);
  const stopped = handle?.reading === true;
  if (handle && stopped) {
    handle.reading = false;
    handle.readStop();
  }
  try {
    return await run();
  } finally {
    if (handle && stopped && !handle.reading && !stdin.destroyed) {
      handle.reading = true;
      handle.readStart();
    }
  }
}
