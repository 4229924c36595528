import type { AnswerOptions, CliIo } from "./cli-io.js";
import type { ApprovalAnswer, ApprovalRequest, FetchQuestion } from "../core/person/approval-request.js";
import { nobody, type Person } from "../core/person/person.js";
import type { TrustQuestion } from "../core/person/trust-question.js";
import type { SignInPerson } from "../core/oauth/server-auth.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { displayWidth, wrapWords } from "../core/text/index.js";
import { askYesNo } from "./terminal-question.js";

/** Why nobody is asked when stdin is no terminal: piped input is never read as an answer. */
export const NO_TERMINAL = "nobody is at a terminal to answer (stdin is not a terminal)";

/**
 * The person at the terminal, for everything outside the TUI (and for the TUI's trust question,
 * asked before it draws): questions on stderr, one line read as the answer by the one rule of
 * askYesNo. Servers' sampling and forms are not asked here (only the TUI has the panels for
 * them). With stdin no terminal, it is nobody.
 */
export function terminalPerson(
  io: CliIo,
  options: {
    signIn?: SignInPerson;
    /** What keys typed before the trust question become (the TUI's: its prompt's draft). */
    typedAhead?: AnswerOptions["setAside"];
  } & Pick<AnswerOptions, "now"> = {},
): Person {
  if (io.stdin.isTTY !== true) return nobody(NO_TERMINAL);
  const clock = options.now ? { now: options.now } : {};
  const trustOptions = { ...clock, ...(options.typedAhead ? { setAside: options.typedAhead } : {}) };
  const no = nobody("only the interactive assistant can answer this");
  return {
    absent: undefined,
    approveCall: (request, signal) => approveAtTerminal(io, callQuestion(request), signal, clock),
    approveFetch: (question, signal) => approveAtTerminal(io, fetchQuestion(question), signal, clock),
    trustConfig: (question, signal) => trustAtTerminal(io, question, signal, trustOptions),
    sampling: (question, signal) => no.sampling(question, signal),
    elicitation: (question, signal) => no.elicitation(question, signal),
    signIn: options.signIn,
  };
}

async function approveAtTerminal(
  io: CliIo,
  question: string,
  signal: AbortSignal,
  clock: Pick<AnswerOptions, "now">,
): Promise<ApprovalAnswer> {
  const yes = await askYesNo(io, question, { signal, ...clock });
  return yes
    ? { approved: true, reason: "approved at the terminal" }
    : { approved: false, reason: "the user did not approve it at the terminal" };
}

function callQuestion(request: ApprovalRequest): string {
  const label = sanitizeForTerminal(`${request.server}/${request.tool}`);
  const tier = `${request.tier}: ${sanitizeForTerminal(request.tierReason)}`;
  return `${label} (${tier}): ${sanitizeForTerminal(request.reason)}. Run it? [y/N] `;
}

function fetchQuestion(question: FetchQuestion): string {
  return `Fetch ${sanitizeForTerminal(question.url)} (an external call) and add it to the knowledge base? [y/N] `;
}

/**
 * Whether the project's config may start or contact its servers, showing each exact command
 * line or URL with a ⚠ line under what must not be missed. Only a typed "y" counts (Enter alone
 * means no); when a line is marked, only "yes" in full, so a reflex keystroke cannot start
 * `curl … | sh`.
 */
async function trustAtTerminal(
  io: CliIo,
  { configPath, summary, entries }: TrustQuestion,
  signal: AbortSignal,
  answering: Pick<AnswerOptions, "now" | "setAside">,
): Promise<boolean> {
  const marked = entries.filter((entry) => entry.warnings.length > 0).length;
  const columns = (io.stderr as { columns?: unknown }).columns;
  const fit = indented(typeof columns === "number" && columns > 0 ? columns : undefined);
  io.stderr.write(
    fit(`${sanitizeForTerminal(configPath)} ${summary}:`, "", "  ") +
      entries
        .map(
          ({ line, warnings }) =>
            fit(sanitizeForTerminal(line), "  ", "    ") +
            warnings.map((text) => fit(text, "    ⚠ ", "      ")).join(""),
        )
        .join(""),
  );
  if (marked === 0) return askYesNo(io, "Trust this config? [y/N] ", { signal, ...answering });
  return askYesNo(
    io,
    fit(
      `${marked === 1 ? "1 line is" : `${marked} lines are`} marked ⚠: read ${marked === 1 ? "it" : "them"} before you trust this config.`,
      "",
      "",
    ) +
      // The answer is typed after the question's last row, a space after it.
      `${fit('Trust this config? Type "yes" in full to trust it anyway. [yes/N]', "", "").slice(0, -1)} `,
    {
      signal,
      ...answering,
      needsFullYes: { refusal: 'Not trusted: with a line marked ⚠, only "yes" typed in full counts.' },
    },
  );
}

/**
 * Lines of the trust question wrapped by words to the terminal's width, each continued row
 * indented under its line: the terminal would otherwise break a command line mid-word, and an
 * argument cut in two reads as two. Not wrapped when the width is unknown (not a terminal).
 */
function indented(columns: number | undefined): (text: string, first: string, next: string) => string {
  return (text, first, next) => {
    if (columns === undefined) return `${first}${text}\n`;
    const rows = wrapWords(text, columns - displayWidth(first), columns - displayWidth(next));
    return rows.map((row, index) => `${index === 0 ? first : next}${row}\n`).join("");
  };
}
