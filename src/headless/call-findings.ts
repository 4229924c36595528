import type { CliIo } from "../common/cli-io.js";
import { describeMismatches, MISMATCH_INTRO } from "../core/policy/output-schema.js";
import { stdoutNoiseSentence } from "../core/mcp/stdout-noise.js";
import { sanitizeOneLine } from "../core/policy/sanitize-terminal.js";

/** The stdout lines told one by one; past them, one line says there were more. */
const NOISE_LINES_TOLD = 3;

/**
 * Warns on stderr as a stdio server writes something other than JSON-RPC to stdout (a
 * `console.log` left in a handler): most clients drop the connection over it, mcpterm reads on.
 * The lines arrive redacted and are quoted, so they cannot pass for mcpterm's own output.
 */
export class StdoutNoiseWarnings {
  private readonly told = new Map<string, number>();

  constructor(private readonly io: Pick<CliIo, "stderr">) {}

  readonly onLine = (server: string, line: string, leftByExit = false): void => {
    const count = (this.told.get(server) ?? 0) + 1;
    this.told.set(server, count);
    const text = stdoutNoiseWarning(server, line, count, leftByExit);
    if (text !== undefined) this.io.stderr.write(`${text}\n`);
  };
}

/** The warning for the `count`th non-JSON line a server wrote to stdout, if it is one to tell. */
export function stdoutNoiseWarning(
  server: string,
  line: string,
  count: number,
  leftByExit = false,
): string | undefined {
  if (count <= NOISE_LINES_TOLD) return `warning: ${stdoutNoiseSentence(server, line, leftByExit)}`;
  if (count === NOISE_LINES_TOLD + 1)
    return `warning: server "${server}" wrote more non-JSON lines to stdout; mcpterm doctor shows the first`;
  return undefined;
}

/** A result's outputSchema mismatches as `warning:` lines: one sentence, or a heading and one line each. */
export function outputSchemaLines(mismatches: readonly string[]): string[] {
  if (mismatches.length > 1)
    return [
      `warning: ${MISMATCH_INTRO} in ${mismatches.length} places:`,
      // A mismatch names the server's own property names: each stays on its line.
      ...mismatches.map((mismatch) => `  ${sanitizeOneLine(mismatch)}`),
    ];
  const sentence = describeMismatches(mismatches);
  return sentence === undefined ? [] : [`warning: ${sanitizeOneLine(sentence)}`];
}
