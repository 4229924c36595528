import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import type { TrustQuestion } from "../core/session/config-trust-step.js";
import { readLineFromTerminal, type CliIo } from "../common/cli-io.js";

/**
 * Asks once, before the TUI draws, whether the project's config may start or contact its
 * servers, showing each exact command line or URL. Only a typed "y" counts: Enter alone means no.
 */
export function askTrustAtTerminal(io: CliIo): (question: TrustQuestion) => Promise<boolean> {
  return async ({ configPath, summary, lines }) => {
    io.stderr.write(
      `${sanitizeForTerminal(configPath)} ${summary}:\n` +
        lines.map((line) => `  ${sanitizeForTerminal(line)}\n`).join(""),
    );
    io.stderr.write("Trust this config? [y/N] ");
    const answer = await readLineFromTerminal(io.stdin, io.signal);
    return answer !== undefined && /^y(es)?$/i.test(answer.trim());
  };
}
