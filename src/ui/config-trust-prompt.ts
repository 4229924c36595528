import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import type { TrustQuestion } from "../core/session/config-trust-step.js";
import { readLineFromTerminal, TYPED_AHEAD_NOTE, type AnswerOptions, type CliIo } from "../common/cli-io.js";

/**
 * Asks once, before the TUI draws, whether the project's config may start or contact its
 * servers, showing each exact command line or URL with a ⚠ line under what must not be missed.
 * Only a typed "y" counts (Enter alone means no); when a line is marked, only "yes" in full, so
 * a reflex keystroke cannot start `curl … | sh`.
 */
export function askTrustAtTerminal(
  io: CliIo,
  /** Tests set the clock the typed-ahead guard reads. */
  clock: Pick<AnswerOptions, "now"> = {},
): (question: TrustQuestion) => Promise<boolean> {
  return async ({ configPath, summary, entries }) => {
    const marked = entries.filter((entry) => entry.warnings.length > 0).length;
    io.stderr.write(
      `${sanitizeForTerminal(configPath)} ${summary}:\n` +
        entries
          .map(
            ({ line, warnings }) =>
              `  ${sanitizeForTerminal(line)}\n` + warnings.map((text) => `    ⚠ ${text}\n`).join(""),
          )
          .join(""),
    );
    if (marked > 0) {
      io.stderr.write(
        `${marked === 1 ? "1 line is" : `${marked} lines are`} marked ⚠: read ${marked === 1 ? "it" : "them"} before you trust this config.\n` +
          'Trust this config? Type "yes" in full to trust it anyway. [yes/N] ',
      );
    } else {
      io.stderr.write("Trust this config? [y/N] ");
    }
    const answer =
      (
        await readLineFromTerminal(io.stdin, io.signal, {
          ...clock,
          onIgnored: () => io.stderr.write(TYPED_AHEAD_NOTE),
        })
      )?.trim() ?? "";
    if (marked === 0) return /^y(es)?$/i.test(answer);
    if (/^y$/i.test(answer))
      io.stderr.write('Not trusted: with a line marked ⚠, only "yes" typed in full counts.\n');
    return /^yes$/i.test(answer);
  };
}
