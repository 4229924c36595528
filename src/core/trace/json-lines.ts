import { createReadStream } from "node:fs";
import { assertRegularFile } from "../files/regular-file.js";

/** One line of a JSON-lines file: its text, or how long it was when it was too long to keep. */
export type JsonLine = { number: number; text: string } | { number: number; tooLong: number };

/**
 * The longest line read whole. mcpterm's recorder keeps every record far below this (large
 * results become a preview of 200,000 characters); a longer line is a hand-made or hostile file,
 * and is reported by its length instead of being held in memory.
 */
export const MAX_LINE_CHARS = 8 * 1_048_576;

/**
 * Reads a file line by line without holding more than one line (of at most `maxLineChars`) at a
 * time, so a file of any size, or one endless line, cannot exhaust memory. Empty lines are skipped.
 */
export async function* readJsonLines(
  file: string,
  maxLineChars = MAX_LINE_CHARS,
): AsyncGenerator<JsonLine, void> {
  await assertRegularFile(file);
  let current = "";
  let length = 0;
  let number = 1;
  const finish = (): JsonLine | undefined => {
    const line: JsonLine | undefined =
      length > maxLineChars
        ? { number, tooLong: length }
        : current.trim() === ""
          ? undefined
          : { number, text: current.replace(/\r$/, "") };
    current = "";
    length = 0;
    number += 1;
    return line;
  };
  for await (const chunk of createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 16 })) {
    let rest = chunk as string;
    let newline = rest.indexOf("\n");
    while (newline !== -1) {
      take(rest.slice(0, newline));
      const line = finish();
      if (line) yield line;
      rest = rest.slice(newline + 1);
      newline = rest.indexOf("\n");
    }
    take(rest);
  }
  const last = finish();
  if (last) yield last;

  function take(piece: string): void {
    length += piece.length;
    // Past the limit the text is dropped and only counted: the line is reported, never parsed.
    if (length <= maxLineChars) current += piece;
    else current = "";
  }
}
