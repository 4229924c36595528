import type { ReadStream } from "node:tty";
import { OPEN_PASTE_SILENCE_MS, OpenPaste } from "./open-paste.js";
import { TerminalReplyFilter } from "./terminal-replies.js";

/**
 * The terminal as Ink reads it: the same stream, but every read comes through a
 * TerminalReplyFilter, so an answer the terminal sends to a program that had the terminal before
 * (an external editor) never reaches the prompt as typing, and through an OpenPaste, so a paste
 * whose end never comes is ended after a silence instead of swallowing every key after it.
 * Everything else is the stream itself.
 */
export function withoutTerminalReplies(
  stdin: ReadStream,
  /**
   * Told `true` each time a paste is ended for the person (see OpenPaste), and `false` when what
   * it owed is over (its real end came, or Esc, Ctrl+C or Ctrl+D alone): meanwhile Enter adds a
   * line, and they need to know why.
   */
  onPasteOwed: (owed: boolean) => void = () => undefined,
): ReadStream {
  const filter = new TerminalReplyFilter();
  const paste = new OpenPaste();
  /** `step`, telling when it left a paste's end owed, or ended what was owed. */
  const watched = (step: () => string): string => {
    const owedBefore = paste.owed;
    const keys = step();
    if (paste.owed !== owedBefore) onPasteOwed(paste.owed);
    return keys;
  };
  /** What a silence made for Ink to read next (see OpenPaste.quiet). */
  let afterSilence = "";
  let silence: NodeJS.Timeout | undefined;
  const watchSilence = (): void => {
    clearTimeout(silence);
    if (!paste.waiting) return;
    silence = setTimeout(() => {
      afterSilence += watched(() => paste.quiet());
      // Ink reads on "readable"; nothing else would make it read what was made here.
      if (afterSilence !== "") stdin.emit("readable");
      watchSilence();
    }, OPEN_PASTE_SILENCE_MS);
    silence.unref();
  };
  const read = (size?: number): string | null => {
    if (afterSilence !== "") {
      const keys = afterSilence;
      afterSilence = "";
      return keys;
    }
    for (;;) {
      const chunk: unknown = stdin.read(size);
      if (chunk === null) return null;
      // Ink sets the stream's encoding, so reads are strings; a Buffer is decoded the same way.
      const keys = filter.push(typeof chunk === "string" ? chunk : (chunk as Buffer).toString("utf8"));
      // A read that held only replies gives nothing: read on, as if it had never come.
      if (keys === "") continue;
      const seen = watched(() => paste.see(keys));
      watchSilence();
      // A read may be held whole (the start of a marker, cut off): read on.
      if (seen !== "") return seen;
    }
  };
  return new Proxy(stdin, {
    get(target, property) {
      if (property === "read") return read;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
