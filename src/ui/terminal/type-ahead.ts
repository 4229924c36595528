import type { ReadStream, WriteStream } from "node:tty";
import { displayWidth } from "../../core/text/index.js";

const TAB_STOP = 8;

/**
 * Keys typed while mcpterm starts arrive in the terminal's cooked mode: the terminal has already
 * echoed them, and has turned each Enter into a line feed, which the prompt would read as Ctrl+J
 * (a new line). This stops the echo, takes what is waiting, erases the rows its echo took (only
 * those: the cursor goes back to where the echo began) and puts the keys back as typed, for Ink
 * (or a question asked first) to read. The terminal stays raw, so later keys are not echoed.
 *
 * Call it before mcpterm prints anything, or the echo is no longer the last thing on screen and
 * the wrong rows are erased (`--resume` saying there is nothing to resume left it above the
 * prompt), and again just before the first frame: a question asked in between (which puts the
 * terminal back in cooked mode) lets the keys typed after it be echoed. Keys read while the
 * terminal was already raw were never echoed, and nothing is erased for them.
 */
export async function captureTypeAhead(stdin: ReadStream, stdout: WriteStream): Promise<void> {
  const echoed = !stdin.isRaw;
  stdin.setRawMode(true);
  const chunks: Buffer[] = [];
  // Read the way Ink does ("readable" and read()), never pausing: a paused tty handle that had
  // nothing to read is not restarted when Ink starts listening, and no key would ever arrive.
  const onReadable = (): void => {
    let chunk: unknown;
    while ((chunk = stdin.read()) !== null)
      chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  };
  stdin.on("readable", onReadable);
  // The bytes already waiting come in the next poll phase; a few turns of the loop (no timer)
  // are enough to have them all.
  for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  stdin.off("readable", onReadable);
  const typed = Buffer.concat(chunks).toString("utf8");
  if (typed === "") return;
  if (!echoed) {
    stdin.unshift(Buffer.from(typed));
    return;
  }
  stdout.write(eraseEcho(typed, stdout.columns));
  stdin.unshift(Buffer.from(keysOfCookedInput(typed)));
}

/** The keys a person typed, from what cooked mode passed on: its line feeds were Enter. */
export function keysOfCookedInput(typed: string): string {
  return typed.replace(/\n/g, "\r");
}

/**
 * Pure: the sequence that erases the terminal's echo of `typed`, which began at the start of a
 * row (where a shell leaves the cursor after running mcpterm): back to the first column, up the
 * rows the echo moved down, erase to the end of the screen.
 */
export function eraseEcho(typed: string, columns: number): string {
  const up = echoRowsBelowStart(typed, columns);
  return `\r${up > 0 ? `\u001b[${up}A` : ""}\u001b[J`;
}

/** Rows the cursor moved down while the terminal echoed `typed` in a window `columns` wide. */
export function echoRowsBelowStart(typed: string, columns: number): number {
  const width = Math.max(1, columns);
  const lines = typed.split("\n");
  let rows = 0;
  lines.forEach((line, index) => {
    const shown = echoWidth(line);
    const last = index === lines.length - 1;
    // A full row leaves the cursor on it (the wrap waits for the next character), so a line
    // exactly `width` wide takes one row and the line feed after it moves down one.
    if (last) rows += shown === 0 ? 0 : Math.floor((shown - 1) / width);
    else rows += Math.max(1, Math.ceil(shown / width));
  });
  return rows;
}

/** Columns the terminal's echo of one line takes: a control byte shows as ^X, a tab to its stop. */
function echoWidth(line: string): number {
  let column = 0;
  let run = "";
  const flush = (): void => {
    column += displayWidth(run);
    run = "";
  };
  for (const character of line) {
    const code = character.codePointAt(0) ?? 0;
    if (character === "\t") {
      flush();
      column += TAB_STOP - (column % TAB_STOP);
    } else if (code < 0x20 || code === 0x7f) {
      flush();
      column += 2;
    } else run += character;
  }
  flush();
  return column;
}
