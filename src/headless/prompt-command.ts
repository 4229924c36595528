import type { CliArgs } from "../args/index.js";
import type { AgentEvent, ProposedToolCall } from "../core/agent/events.js";
import { ExitCode, OUTPUT_CLOSED, UsageError } from "../core/errors.js";
import { sanitizeForTerminal, sanitizeOneLine } from "../core/policy/sanitize-terminal.js";
import { TIERS } from "../core/policy/tiers.js";
import { attachPipedText } from "../core/context/piped-text.js";
import { prepareMentions, withAttached } from "../core/context/prepare-message.js";
import { openSession } from "../core/session/open-session.js";
import { findSavedSession, missingSince, resumeNotices } from "../core/session/resume-session.js";
import { SessionMarks } from "../core/session/session-mark.js";
import { aborted, readAll, type CliIo } from "../common/cli-io.js";
import { sessionRequest } from "../common/session-request.js";
import { readPipedStdin } from "./piped-stdin.js";
import { progressLine } from "./progress-lines.js";
import { emptySummary, summarize } from "./run-summary.js";

type PromptArgs = Extract<CliArgs, { command: "prompt" }>;

/**
 * `mcpterm -p`: one turn, no person to ask. The answer goes to stdout, progress and warnings
 * to stderr; the exit code says how it went (0 done, 1 failed, 3 a call was denied).
 */
export async function runPromptCommand(args: PromptArgs, io: CliIo): Promise<ExitCode> {
  // At a terminal, `-p -` waits for typed text: say so, or it looks hung.
  if (args.prompt === "-" && io.stdin.isTTY)
    io.stderr.write("Reading the prompt from the terminal; end it with Ctrl+D on a line of its own.\n");
  // Ctrl+C or a signal while the prompt is read (a pipe that never ends, `tail -f log | …`) stops it.
  const read =
    args.prompt === "-" ? await Promise.race([readAll(io.stdin), aborted(io.signal)]) : args.prompt;
  if (read === undefined) return interrupted(io);
  // Text piped in beside `-p <text>` is read from now, while the session opens and the servers
  // start (a `-p -` run's is its prompt).
  const piped = args.prompt === "-" ? undefined : readPipedStdin(io);
  const prompt = read.trim();
  if (prompt === "")
    throw new UsageError("The prompt read from stdin is empty; pipe in some text or pass -p <text>.");
  if (args.resume?.kind === "pick")
    throw new UsageError(
      "--resume needs a session id in a one-shot run (nobody is there to pick one); pass --resume <id>, or --continue for the latest.",
    );
  // Read before anything starts: a session that cannot be resumed stops the run here.
  const resumed = args.resume
    ? await findSavedSession(io.cwd, args.resume, SessionMarks.forEnv(io.env))
    : undefined;

  const runtime = await openSession(
    sessionRequest(args, {
      approve: args.yes ? TIERS : args.approve,
      interactive: false,
      allowSecretArguments: args.allowSecretArguments,
      allowSampling: args.allowSampling,
    }),
    io,
  );
  // Once Ctrl+C stopped the run while servers started, what the stop does to them (a connection
  // closed, a deadline said to pass) is not news: only "interrupted" is.
  let stoppedStarting = false;
  // Said before the turn (a server that could not start, a knowledge folder refused): on stderr
  // as they come, and in --output json's warnings and as stream-json warning events, so a script
  // reading only stdout learns its run had fewer tools.
  const startWarnings: string[] = [];
  let turnStarted = false;
  const warn = (message: string): void => {
    if (stoppedStarting) return;
    io.stderr.write(`warning: ${sanitizeOneLine(message)}\n`);
    if (turnStarted) return;
    startWarnings.push(message);
    if (args.output === "stream-json") io.stdout.write(`${JSON.stringify({ type: "warning", message })}\n`);
  };
  // Server errors and declined server requests, as they happen (stderr: stdout is the answer).
  const stopNotices = runtime.onNotice((notice) => warn(notice.text));
  try {
    for (const notice of runtime.notices) warn(notice.text);
    const opening = runtime.knowledge.access().state === "loading";
    const started = runtime.start();
    // Ctrl+C while servers start stops the wait at once: a slow server's start may take its
    // whole startupTimeoutMs, and closing the session (below) stops it.
    const settled = await Promise.race([
      Promise.all([started.servers, started.knowledge]),
      aborted(io.signal),
    ]);
    if (settled === undefined) {
      stoppedStarting = true;
      return interrupted(io);
    }
    const [, knowledge] = settled;
    // A knowledge base that could not be opened (its folder leads outside the project, say) is said.
    if (opening && knowledge.state === "off") warn(knowledge.reason);
    // A server that could not be started was told as it failed (the session's notices, above).
    const model = runtime.modelFor();
    if (resumed) {
      for (const note of resumeNotices(resumed, { cwd: io.cwd, model: model.model, oneShot: true }).slice(1))
        warn(note);
      for (const note of missingSince(resumed, {
        servers: runtime.manager.servers(),
        tools: runtime.tools.list(),
      }))
        warn(note);
    }
    // Mentions are read in a prompt typed as -p <text>; text piped in is data and goes as it is.
    const prepared =
      args.prompt === "-"
        ? undefined
        : await prepareMentions(prompt, {
            manager: runtime.manager,
            redactor: runtime.redactor,
            signal: io.signal,
            cwd: io.cwd,
          });
    if (prepared && !prepared.ok) throw new UsageError(prepared.reason);
    const pipedBytes = await piped?.take(warn);
    if (pipedBytes === "interrupted") return interrupted(io);
    const pipedText = pipedBytes && (await attachPipedText(pipedBytes, runtime.redactor));
    if (pipedText && !pipedText.ok) throw new UsageError(pipedText.reason);
    const session = runtime.newSession(model, resumed);
    const message = withAttached(prepared?.message ?? { text: prompt }, pipedText?.attached);
    // What is said from here on (a server's exit mid-turn) is the turn's, on stderr as it comes.
    turnStarted = true;
    return await printEvents(session.run(message, { signal: io.signal }), args, io, {
      savedId: () => session.savedId,
      startWarnings,
    });
  } finally {
    // Notices still count while closing: a collector found down by the last export says so then.
    await runtime.close();
    stopNotices();
  }
}

/** The events arrive redacted (SessionOutput); what is printed is sanitized for the terminal. */
async function printEvents(
  events: AsyncIterable<AgentEvent>,
  args: PromptArgs,
  io: CliIo,
  run: { savedId: () => string | undefined; startWarnings: readonly string[] },
): Promise<ExitCode> {
  const calls = new Map<string, ProposedToolCall>();
  let summary = emptySummary();
  let exitCode: ExitCode = ExitCode.ok;
  let endsWithNewline = true;
  /** The step whose words were printed last: another step's words start a paragraph of their own. */
  let textStep: number | undefined;
  // A call lost because its server's process ended: the run did not do what was asked of it.
  let lostToExit = false;

  for await (const event of events) {
    summary = summarize(summary, event);
    if (event.type === "tool_call_proposed") calls.set(event.call.id, event.call);
    if (args.output === "stream-json") io.stdout.write(`${JSON.stringify(event)}\n`);
    if (args.output === "text") {
      if (event.type === "text_delta") {
        const text = sanitizeForTerminal(event.delta);
        if (text && textStep !== undefined && textStep !== event.step) io.stdout.write("\n");
        io.stdout.write(text);
        if (text) {
          endsWithNewline = text.endsWith("\n");
          textStep = event.step;
        }
      }
      // Words before a step's calls end their line: the calls' lines (stderr) and the next
      // step's words start on their own, on a terminal that shows both and in a file of stdout.
      if (event.type === "model_step_end" && event.toolCalls > 0 && !endsWithNewline) {
        io.stdout.write("\n");
        endsWithNewline = true;
      }
      const line = progressLine(event, calls);
      if (line) io.stderr.write(`${line}\n`);
    }
    if (event.type === "error") exitCode = event.exitCode as ExitCode;
    if (event.type === "tool_result" && event.serverExited !== undefined) lostToExit = true;
    if (event.type === "turn_end") {
      if (event.reason === "max_steps" || event.reason === "loop_detected" || event.reason === "aborted") {
        exitCode = ExitCode.runtime;
      } else if (event.reason === "completed" && event.deniedCalls > 0) exitCode = ExitCode.denied;
    }
  }

  if (lostToExit && (exitCode === ExitCode.ok || exitCode === ExitCode.denied))
    exitCode = ExitCode.serverUnavailable;
  if (args.output === "text" && !endsWithNewline) io.stdout.write("\n");
  if (args.output === "json") {
    const warnings = [...run.startWarnings, ...summary.warnings];
    io.stdout.write(`${JSON.stringify({ ...summary, warnings, session: run.savedId() }, null, 2)}\n`);
  }
  if (summary.error) io.stderr.write(`mcpterm: ${sanitizeOneLine(summary.error.message)}\n`);
  // A run stopped because its output's reader went away says nothing more (see OUTPUT_CLOSED).
  if (summary.reason === "aborted" && io.signal.reason !== OUTPUT_CLOSED)
    io.stderr.write("mcpterm: interrupted.\n");
  return exitCode;
}

/**
 * A run stopped before its turn (Ctrl+C, a signal): said in one word, unless it stopped because
 * its output's reader went away, which says nothing more (see OUTPUT_CLOSED).
 */
function interrupted(io: CliIo): ExitCode {
  if (io.signal.reason !== OUTPUT_CLOSED) io.stderr.write("mcpterm: interrupted.\n");
  return ExitCode.runtime;
}
