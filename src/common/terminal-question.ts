import { readLineFromTerminal, TYPED_AHEAD_NOTE, type AnswerOptions, type CliIo } from "./cli-io.js";

/**
 * The one rule for what answers a question yes at the terminal: "y" or "yes" in any case, with
 * spaces around it; Enter alone, anything else, or nothing (Ctrl+C, the end of input) is no. A
 * question about something marked ⚠ takes only "yes" typed in full.
 */
export function answeredYes(answer: string | undefined, needsFullYes = false): boolean {
  const said = (answer ?? "").trim();
  return needsFullYes ? /^yes$/i.test(said) : /^y(es)?$/i.test(said);
}

/**
 * Asks `question` on stderr and reads one line from the terminal: lines typed before the question
 * was shown are thrown away and the person is told so (see readLineFromTerminal). Every y/N and
 * "type yes" question mcpterm asks outside the TUI goes through here.
 */
export async function askYesNo(
  io: Pick<CliIo, "stdin" | "stderr" | "signal">,
  question: string,
  options: {
    /** Only "yes" in full counts; a plain "y" is refused with this sentence. */
    needsFullYes?: { refusal: string };
    signal?: AbortSignal;
  } & Pick<AnswerOptions, "now" | "setAside"> = {},
): Promise<boolean> {
  io.stderr.write(question);
  const answer = await readLineFromTerminal(io.stdin, options.signal ?? io.signal, {
    ...(options.now ? { now: options.now } : {}),
    ...(options.setAside ? { setAside: options.setAside } : {}),
    onIgnored: () => io.stderr.write(TYPED_AHEAD_NOTE),
  });
  // Stopped unanswered (Ctrl+C): whatever is written next starts on a line of its own.
  if (answer === undefined && (options.signal ?? io.signal).aborted) io.stderr.write("\n");
  const yes = answeredYes(answer, options.needsFullYes !== undefined);
  if (options.needsFullYes && !yes && answeredYes(answer))
    io.stderr.write(`${options.needsFullYes.refusal}\n`);
  return yes;
}
