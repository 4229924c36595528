import type { Writable } from "node:stream";
import type { CliIo } from "../common/cli-io.js";
import { SecretRedactor } from "../core/policy/redact-secrets.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";

/**
 * The one way out for everything a headless command prints: its stdout and stderr, each write
 * redacted (the secret rule sets and the secrets this process's environment holds) and stripped
 * of terminal escapes and hidden characters before it leaves. Commands still redact with what
 * only they know (a config's header values, tokens learned during a sign-in); this is the guard
 * behind them, so a message a command forgot to clean cannot drive the terminal or print a key.
 * mcpterm itself writes no escape sequences outside the TUI, so nothing of its own is lost.
 */
export function guardedOutput(io: CliIo): CliIo {
  const redactor = SecretRedactor.forSession([], io.env);
  const clean = (text: string): string => sanitizeForTerminal(redactor.redactText(text));
  return { ...io, stdout: guarded(io.stdout, clean), stderr: guarded(io.stderr, clean) };
}

function guarded(stream: Writable, clean: (text: string) => string): Writable {
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text = typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString("utf8") : chunk;
    return (stream.write as (chunk: unknown, ...rest: unknown[]) => boolean)(
      typeof text === "string" ? clean(text) : text,
      ...rest,
    );
  };
  return new Proxy(stream, {
    get(target, property) {
      if (property === "write") return write;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
