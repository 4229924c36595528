import { format } from "node:util";

const METHODS = ["log", "info", "warn", "error", "debug", "trace"] as const;

/**
 * What libraries print with `console` (the MCP SDK warns there, quoting servers' error texts
 * that may carry a client secret or a token; React and Ink warn there too) never reaches the
 * terminal as it is: it would leak what mcpterm redacts everywhere else, and in the TUI write
 * over Ink's frame. mcpterm itself never uses `console` (lint forbids it). Without `--debug` the
 * text is dropped; with it, each message goes to stderr on one line, secrets redacted (those in
 * the environment, and credential shapes such as `Basic …` and `Bearer …`) and terminal controls
 * stripped.
 */
export function guardLibraryConsole(debug: boolean, stderr: NodeJS.WritableStream): void {
  for (const method of METHODS) {
    console[method] = debug
      ? (...args: unknown[]) => {
          const text = format(...args);
          void shown(text).then((line) => stderr.write(`mcpterm: (library) ${line}\n`));
        }
      : () => undefined;
  }
}

async function shown(text: string): Promise<string> {
  const [{ SecretRedactor }, { sanitizeForTerminal }] = await Promise.all([
    import("../core/policy/redact-secrets.js"),
    import("../core/policy/sanitize-terminal.js"),
  ]);
  redactor ??= SecretRedactor.forSession([], process.env);
  return sanitizeForTerminal(redactor.redactText(text)).replace(/\s*\n\s*/g, " ");
}

let redactor: { redactText(text: string): string } | undefined;
