import { writeFile } from "node:fs/promises";
import path from "node:path";
import { errorMessage, ExitCode, UsageError } from "../core/errors.js";
import { newestTrace, traceDir } from "../core/trace/trace-files.js";
import type { Trace } from "../core/trace/trace-model.js";
import { toOtlpJson } from "../core/trace/trace-otlp.js";
import { readTrace } from "../core/trace/trace-reader.js";
import { renderTraceTree, selectTurn } from "../core/trace/trace-tree.js";
import { renderWire, wireFrames } from "../core/trace/trace-wire.js";
import type { TraceCommandArgs } from "../args.js";
import type { CliIo } from "../common/cli-io.js";

/**
 * `mcpterm trace [file] [--turn n] [--json] [--wire [--server s] [--full]] [--otlp out.json]`: reads a
 * trace and prints its tree, its grouped structure, its wire frames, or writes an OTLP export.
 */
export async function runTraceCommand(args: TraceCommandArgs, io: CliIo): Promise<number> {
  if (args.server !== undefined && !args.wire) throw new UsageError("--server only applies to --wire.");
  if (args.full && !args.wire) throw new UsageError("--full only applies to --wire.");
  const file = await resolveTraceFile(args.file, io.cwd);
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
    const out = path.resolve(io.cwd, args.otlp);
    const exported = toOtlpJson(selected);
    await writeFile(out, `${JSON.stringify(exported, null, 2)}\n`);
    const spans = exported.resourceSpans[0]?.scopeSpans[0]?.spans.length ?? 0;
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

async function resolveTraceFile(file: string | undefined, cwd: string): Promise<string> {
  if (file !== undefined) return path.resolve(cwd, file);
  const dir = traceDir(cwd);
  const newest = await newestTrace(dir);
  if (!newest)
    throw new UsageError(`There are no traces in ${dir}; run a session first or name a trace file.`);
  return newest;
}

function onlyTurn(trace: Trace, index: number): Trace {
  return { ...trace, turns: [selectTurn(trace, index)] };
}

/** The grouped structure; frames are listed with --wire, where they are readable. */
function withoutWire(trace: Trace): Omit<Trace, "wire"> & { wireFrames: number } {
  const { wire, ...rest } = trace;
  return { ...rest, wireFrames: wire.length };
}
