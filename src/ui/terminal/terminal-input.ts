import type { ReadStream } from "node:tty";
import { TerminalReplyFilter } from "./terminal-replies.js";

/**
 * The terminal as Ink reads it: the same stream, but every read comes through a
 * TerminalReplyFilter, so an answer the terminal sends to a program that had the terminal before
 * (an external editor) never reaches the prompt as typing. Everything else is the stream itself.
 */
export function withoutTerminalReplies(stdin: ReadStream): ReadStream {
  const filter = new TerminalReplyFilter();
  const read = (size?: number): string | null => {
    for (;;) {
      const chunk: unknown = stdin.read(size);
      if (chunk === null) return null;
      // Ink sets the stream's encoding, so reads are strings; a Buffer is decoded the same way.
      const keys = filter.push(typeof chunk === "string" ? chunk : (chunk as Buffer).toString("utf8"));
      // A read that held only replies gives nothing: read on, as if it had never come.
      if (keys !== "") return keys;
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
