import { writeFile } from "node:fs/promises";
import path from "node:path";
import { errorMessage, ExitCode, UsageError } from "../core/errors.js";
import { resolveTraceFile } from "../core/trace/trace-files.js";
import type { Trace } from "../core/trace/trace-model.js";
import { isHttpUrl } from "../core/config/http-url.js";
import { toOtlpJson } from "../core/trace/trace-otlp.js";
import { readTrace } from "../core/trace/trace-reader.js";
import { renderTraceTree, selectTurn } from "../core/trace/trace-tree.js";
import { renderWire, wireFrames } from "../core/trace/trace-wire.js";
import { callLine } from "../core/trace/calls-file.js";
import { readRecordedCalls } from "../core/trace/read-calls.js";
import { newFileRefusal } from "../core/files/new-file.js";
import { escapeInvisible, fileSafeJson } from "../core/policy/json-escapes.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import type { TraceCommandArgs } from "../args/index.js";
import type { CliIo } from "../common/cli-io.js";
import { sendOtlp } from "./send-otlp.js";
import { resolveTelemetry } from "../core/telemetry/telemetry-settings.js";
import { UserSettings } from "../core/config/user-settings.js";

/**
 * `mcpterm trace [file] [--turn n] [--json] [--wire [--server s] [--full]] [--otlp out.json|url] [--calls]`:
 * reads a trace and prints its tree, its grouped structure, its wire frames or its MCP calls, or
 * writes an OTLP export to a file or sends it to a collector.
 */
export async function runTraceCommand(args: TraceCommandArgs, io: CliIo): Promise<number> {
  if (args.server !== undefined && !args.wire && !args.calls)
    throw new UsageError("--server only applies to --wire and --calls.");
  if (args.full && !args.wire) throw new UsageError("--full only applies to --wire.");
  const file = await resolveTraceFile(args.file, io.cwd);
  if (args.calls) return printCalls(args, file, io);
  const trace = await readTrace(file).catch((error: unknown) => {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    throw new UsageError(
      missing
        ? `There is no trace file at ${file}.`
        : `Cannot read the trace ${file}: ${errorMessage(error)}.`,
      { cause: error },
    );
  });
  const selected = args.turn === undefined ? trace : onlyTurn(trace, args.turn);

  if (args.otlp !== undefined) {
    // A URL is a collector to send to; anything else a file to write. A collector is sent what
    // people said and tools returned only with content capture on, as live export is.
    const toCollector = isHttpUrl(args.otlp);
    // Content capture and headers are read as live export reads them: environment, then the
    // person's own settings (never the project's config).
    const resolved = toCollector
      ? resolveTelemetry({
          flag: args.otlp,
          flagName: "--otlp",
          env: io.env,
          user: new UserSettings(io.env.MCPTERM_SETTINGS_DIR, io.env).telemetry(),
        })
      : undefined;
    const live = resolved?.settings;
    // Refused as live export would be (a URL's password and an Authorization header both): said.
    if (toCollector && !live)
      throw new UsageError(resolved?.warnings.at(-1) ?? `${args.otlp} cannot be sent to.`);
    const contents = !toCollector || live?.captureContent === true;
    const exported = toOtlpJson(selected, { contents });
    const spans = exported.resourceSpans[0]?.scopeSpans[0]?.spans.length ?? 0;
    if (toCollector) {
      const url = await sendOtlp(exported, live?.url ?? args.otlp, live?.headers ?? {});
      io.stdout.write(`Sent ${spans} span(s) from ${selected.turns.length} turn(s) of ${file} to ${url}.\n`);
      return ExitCode.ok;
    }
    const out = path.resolve(io.cwd, args.otlp);
    await writeExport(out, fileSafeJson(`${JSON.stringify(exported, null, 2)}\n`));
    io.stdout.write(
      `Wrote ${spans} span(s) from ${selected.turns.length} turn(s) of ${file} to ${out} (OTLP/JSON).\n`,
    );
    return ExitCode.ok;
  }
  if (args.wire) {
    const options = args.server === undefined ? {} : { server: args.server };
    if (args.json) {
      for (const frame of wireFrames(trace, options)) io.stdout.write(`${JSON.stringify(frame)}\n`);
    } else io.stdout.write(renderWire(trace, { ...options, full: args.full }));
    return ExitCode.ok;
  }
  if (args.json) {
    io.stdout.write(
      `${JSON.stringify(args.turn === undefined ? withoutWire(trace) : selectTurn(trace, args.turn), null, 2)}\n`,
    );
    return ExitCode.ok;
  }
  io.stdout.write(renderTraceTree(trace, args.turn === undefined ? {} : { turn: args.turn }));
  return ExitCode.ok;
}

function onlyTurn(trace: Trace, index: number): Trace {
  return { ...trace, turns: [selectTurn(trace, index)] };
}

/** The grouped structure; frames are listed with --wire, where they are readable. */
function withoutWire(trace: Trace): Omit<Trace, "wire"> & { wireFrames: number } {
  const { wire, ...rest } = trace;
  return { ...rest, wireFrames: wire.length };
}

/** `--calls`: the recorded calls as JSON lines, the calls file `mcpterm replay` reads back. */
async function printCalls(args: TraceCommandArgs, file: string, io: CliIo): Promise<number> {
  const others = [
    args.turn === undefined ? undefined : "--turn",
    args.json ? "--json" : undefined,
    args.wire ? "--wire" : undefined,
    args.otlp === undefined ? undefined : "--otlp",
  ].filter((flag) => flag !== undefined);
  if (others.length > 0)
    throw new UsageError(
      `--calls prints every call of the file as JSON lines; leave out ${others.join(", ")}.`,
    );
  const recorded = await readRecordedCalls(file);
  for (const note of recorded.notes) io.stderr.write(`note: ${sanitizeForTerminal(note)}\n`);
  const calls = recorded.calls.filter((call) => args.server === undefined || call.server === args.server);
  for (const call of calls) io.stdout.write(`${escapeInvisible(callLine(call))}\n`);
  if (calls.length === 0)
    io.stderr.write(
      `note: ${sanitizeForTerminal(`${file} holds no MCP calls${args.server === undefined ? "" : ` to server "${args.server}"`}.`)}\n`,
    );
  return ExitCode.ok;
}

/**
 * Writes an OTLP export to a new file only, readable by its owner alone: it holds what was said
 * and what tools returned, as the trace does, and a typo or a link a project planted must not
 * replace a file of the person's (the flag `wx` neither replaces a file nor follows a link).
 * What stops it is said in a sentence, as the person's mistake.
 */
async function writeExport(out: string, text: string): Promise<void> {
  try {
    await writeFile(out, text, { flag: "wx", mode: 0o600 });
  } catch (error) {
    throw new UsageError(await newFileRefusal(out, error, "--otlp"), { cause: error });
  }
}
