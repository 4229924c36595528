import { writeSync } from "node:fs";
import type { ReadStream, WriteStream } from "node:tty";
import { displayWidth } from "../../core/text/index.js";
import { captureTypeAhead } from "./type-ahead.js";
import { replayTyped } from "../keys/typed-keys.js";

/**
 * The first frame, drawn before Ink has loaded: loading Ink, React and the TUI takes most of
 * mcpterm's start, and a person should see a prompt and be able to type into it at once. This is
 * the prompt box and a status line in plain terminal writes; what is typed into it shows there.
 *
 * The frame goes away, with its keys given back to stdin as typed, just before anything else is
 * written to the terminal: Ink's first frame, a trust question, the session picker, an error.
 * It patches the two streams' `write` for that one moment, so no caller has to remember it, and
 * the rows are erased before those bytes, so nothing is drawn twice and no key is lost. The
 * terminal stays raw, as the type-ahead rules expect (a question puts it back in cooked mode).
 * If mcpterm then ends with those keys still unread (it stopped on an error before anything took
 * them), what they typed is printed after the error, so a question typed while mcpterm started
 * is not lost with it.
 */
export interface EarlyFrame {
  /** Takes the frame off the screen and gives its keys back to stdin; only the first call acts. */
  remove(): void;
}

/** Rows the frame takes: the box (three rows) and the status line. */
const FRAME_ROWS = 4;
/** Narrower than this, the box could not hold its own borders and the marker. */
const MIN_COLUMNS = 12;
const ETX = 0x03;
/**
 * Erases `rows` rows from the cursor's up, ending at the start of the highest. Row by row: an
 * erase to the end of the screen (ESC[J) from the top-left corner makes tmux keep the screen in
 * its scrollback, frame and all.
 */
function eraseRows(rows: number): string {
  return `\u001b[2K${"\u001b[1A\u001b[2K".repeat(Math.max(0, rows - 1))}\r`;
}

/** Takes the frame off a screen the width it was drawn for. */
export const ERASE_FRAME = eraseRows(FRAME_ROWS);
/**
 * Bracketed paste on while the frame is up, so a paste arrives marked as one (its line breaks are
 * not Enter) and Ink takes it as a paste; off again when the frame goes, until Ink turns it on,
 * so a question asked in between reads plain lines.
 */
const PASTE_ON = "\u001b[?2004h";
const PASTE_OFF = "\u001b[?2004l";

export interface EarlyFrameOptions {
  /** The status line under the box. */
  status: string;
  color: boolean;
}

export async function drawEarlyFrame(
  stdin: ReadStream,
  stdout: WriteStream & { fd: number },
  stderr: NodeJS.WriteStream,
  options: EarlyFrameOptions,
): Promise<EarlyFrame | undefined> {
  if (!fitsFrame(stdout)) return undefined;
  // Keys typed before this (echoed in cooked mode) leave the screen first, and come back as keys.
  await captureTypeAhead(stdin, stdout);
  const writeOut = stdout.write.bind(stdout) as (...args: unknown[]) => boolean;
  // Kept as the bytes came: a character split across two reads is whole again when joined.
  let typed: Buffer = Buffer.alloc(0);
  let drawn: DrawnFrame | undefined;
  let pasteOn = false;
  let removed = false;
  let interrupted = false;

  // Drawn again in place as keys come; after the window changed width, the frame as the terminal
  // rewrapped it is erased first, then drawn for the new width (or not at all if it cannot fit).
  const draw = (): void => {
    const { columns } = stdout;
    const fits = fitsFrame(stdout);
    let out = pasteOn ? "" : PASTE_ON;
    pasteOn = true;
    if (drawn && drawn.columns === columns && fits) out += `\r\u001b[${FRAME_ROWS - 1}A`;
    else if (drawn) out += eraseRows(rowsOnScreen(drawn, columns));
    drawn = undefined;
    if (fits) {
      out += frameText(typed.toString("utf8"), columns, options);
      drawn = { columns, widths: frameRowWidths(columns, options) };
    }
    writeOut(out);
  };
  const takeKeys = (): void => {
    let chunk: unknown;
    while ((chunk = stdin.read()) !== null)
      typed = Buffer.concat([typed, typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer)]);
  };
  const onReadable = (): void => {
    takeKeys();
    const stop = typed.indexOf(ETX);
    if (stop !== -1) {
      // Raw mode turns Ctrl+C into a key: it still means stop, as it does everywhere else.
      typed = typed.subarray(0, stop);
      interrupted = true;
      frame.remove();
      process.kill(process.pid, "SIGINT");
      return;
    }
    draw();
  };
  const frame: EarlyFrame = {
    remove() {
      if (removed) return;
      removed = true;
      stdin.off("readable", onReadable);
      stdout.off("resize", draw);
      restoreOut();
      restoreErr();
      writeOut(`${drawn ? eraseRows(rowsOnScreen(drawn, stdout.columns)) : ""}${PASTE_OFF}`);
      if (typed.length > 0) stdin.unshift(typed);
    },
  };
  const restoreOut = beforeEachWrite(stdout, () => frame.remove());
  const restoreErr = beforeEachWrite(stderr, () => frame.remove());
  // Kept for the process's life: at exit the frame goes if it is still up, and keys handed back
  // that nothing read are told (Ctrl+C means the person is done with them; nothing else does).
  process.on("exit", () => {
    frame.remove();
    if (!interrupted) reportUnread(stdin, stdout);
  });
  // The keys typed ahead are in the first frame already.
  takeKeys();
  draw();
  // Read the way Ink does ("readable" and read()), never pausing (see type-ahead.ts).
  stdin.on("readable", onReadable);
  stdout.on("resize", draw);
  return frame;
}

/** The frame as it is on screen: the width it was drawn for, and each row's width then. */
interface DrawnFrame {
  columns: number;
  widths: readonly number[];
}

/**
 * The rows the frame takes once the window is `columns` wide. A terminal that rewraps its lines
 * when narrowed (tmux, iTerm2, VTE, kitty, Windows Terminal) breaks each row wider than the window
 * into as many rows as it needs; one that is widened leaves each row as one.
 */
export function rowsOnScreen(drawn: DrawnFrame, columns: number): number {
  if (columns >= drawn.columns) return drawn.widths.length;
  return drawn.widths.reduce((rows, width) => rows + Math.max(1, Math.ceil(width / Math.max(1, columns))), 0);
}

/**
 * At exit: the keys handed back that nothing read, as what they typed, on the terminal (stdout,
 * which the frame was drawn on; stderr may be a log file, and the keys are the person's own).
 * Written with writeSync, as nothing asynchronous runs once the process is exiting.
 */
function reportUnread(stdin: ReadStream, terminal: { fd: number }): void {
  if (stdin.readableLength === 0) return;
  const unread: unknown = stdin.read();
  if (!Buffer.isBuffer(unread) && typeof unread !== "string") return;
  const text = typedText(Buffer.isBuffer(unread) ? unread.toString("utf8") : unread);
  if (text.trim() === "") return;
  const shown = text.includes("\n") ? `\n${text.replace(/^/gm, "  ")}` : ` ${text}`;
  try {
    writeSync(terminal.fd, `mcpterm: what you typed was not sent:${shown}\n`);
  } catch {
    // A closed terminal has no one to tell.
  }
}

/**
 * Runs `before` ahead of every write to `stream` until the returned function puts its own write
 * back. A stream's write has several overloads; the patch passes whatever it is given on.
 */
function beforeEachWrite(stream: NodeJS.WriteStream, before: () => void): () => void {
  const own = Object.getOwnPropertyDescriptor(stream, "write");
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = (...args: unknown[]) => {
    before();
    return write(...args);
  };
  return () => {
    if (own) Object.defineProperty(stream, "write", own);
    else Reflect.deleteProperty(stream, "write");
  };
}

/** Whether the window can hold the frame (its borders and marker, and a row above it). */
function fitsFrame(stdout: WriteStream): boolean {
  return stdout.columns >= MIN_COLUMNS && stdout.rows >= FRAME_ROWS + 1;
}

/** The width of each of frameText's rows: the box fills the window, the status line less. */
function frameRowWidths(columns: number, options: EarlyFrameOptions): number[] {
  return [columns, columns, columns, displayWidth(statusText(options, columns))];
}

function statusText(options: EarlyFrameOptions, columns: number): string {
  return tailWithin(options.status, columns - 1);
}

/** The frame's four rows, the cursor left at the end of the last (nothing below it is touched). */
export function frameText(typed: string, columns: number, options: EarlyFrameOptions): string {
  const inner = columns - 2;
  const paint = (code: string, text: string): string =>
    options.color ? `\u001b[${code}m${text}\u001b[39m` : text;
  const shown = tailWithin(withoutTabs(visibleDraft(typed), DRAFT_COLUMN), inner - 3);
  const row = `${paint("36", "│")} ${paint("36", "›")} ${shown}${" ".repeat(Math.max(0, inner - 3 - displayWidth(shown)))}${paint("36", "│")}`;
  const status = statusText(options, columns);
  return [
    `\u001b[2K${paint("36", `╭${"─".repeat(inner)}╮`)}`,
    `\u001b[2K${row}`,
    `\u001b[2K${paint("36", `╰${"─".repeat(inner)}╯`)}`,
    `\u001b[2K${options.color ? `\u001b[90m${status}\u001b[39m` : status}`,
  ].join("\r\n");
}

/**
 * Everything typed, as the prompt would have it (see replayTyped): each message Enter would have
 * sent, then the draft left, one after another; "" when nothing but blanks is left.
 */
export function typedText(typed: string): string {
  const { sent, draft } = replayTyped(typed);
  return [...sent, draft.text].filter((text) => text.trim() !== "").join("\n");
}

/**
 * The draft as typed so far, for showing only (the keys themselves go to Ink untouched): the line
 * of it the cursor is on, as the prompt would have it (see replayTyped).
 */
export function visibleDraft(typed: string): string {
  const { draft } = replayTyped(typed);
  const before = draft.text.slice(0, draft.cursor);
  const start = before.lastIndexOf("\n") + 1;
  const end = draft.text.indexOf("\n", draft.cursor);
  return draft.text.slice(start, end === -1 ? undefined : end);
}

/** The column the draft starts at, after `│ › `. */
const DRAFT_COLUMN = 4;
const TAB_STOP = 8;

/**
 * A line with each tab written as the spaces the terminal would move over for it, from `column`
 * on: a tab's width is where it stands, and counted as nothing it made the row wider than the
 * window, which wrapped, and the frame's top row stayed on screen when the frame was erased.
 */
function withoutTabs(line: string, column: number): string {
  if (!line.includes("\t")) return line;
  let at = column;
  let out = "";
  for (const { segment } of GRAPHEMES.segment(line)) {
    const piece = segment === "\t" ? " ".repeat(TAB_STOP - (at % TAB_STOP)) : segment;
    out += piece;
    at += displayWidth(piece);
  }
  return out;
}

const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The end of `text` that fits in `width` columns: the cursor's side of a long draft. */
function tailWithin(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  const characters = Array.from(GRAPHEMES.segment(text), (part) => part.segment);
  let tail = "";
  for (let index = characters.length - 1; index >= 0; index -= 1) {
    const next = `${characters[index] ?? ""}${tail}`;
    if (displayWidth(next) > width) break;
    tail = next;
  }
  return tail;
}
