import { closeSync, fchmodSync, fstatSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { EventSink } from "../agent/session.js";
import { fileSafeJson } from "../policy/json-escapes.js";
import type { ServerExitReport } from "../mcp/server-exit.js";
import type { SubscriptionEvent } from "../mcp/subscriptions.js";
import type { CacheHit } from "../mcp/response-cache.js";
import { summarizeServer, type CallToolResult, type ServerSnapshot, type WireFrame } from "../mcp/types.js";
import { MCPTERM_VERSION } from "../version.js";
import { errorMessage } from "../errors.js";
import { checkedLines, type RecordRedaction } from "../policy/redacted-json.js";
import type { ServerRequestRecord } from "../person/server-requests.js";
import { InputRounds } from "../mcp/input-rounds.js";
import { newSessionId } from "./session-id.js";
import { openTraceFile, TRACE_FILE_MODE } from "./trace-file.js";
import { TurnEndWriter, type Rendered } from "./turn-end-writer.js";
import { PREVIEW, previewAsText, previewPart, withinDepth } from "./preview-part.js";

export interface TraceRecorderOptions {
  /** Write here (appending) instead of `<dir>/<session id>.jsonl`. */
  file?: string;
  /** Where session traces live, e.g. `<cwd>/.mcpterm/traces`. */
  dir: string;
  /**
   * Sees every string and serialized line of every record before it is written: the recorder's
   * own (wire frames, raw results, server states), and the session's events too, which arrive
   * redacted by the synchronous rules alone (SessionOutput), so a secret only the full rule set
   * finds (an argument the model wrote, a frame's result) is taken out here.
   */
  redaction: RecordRedaction;
  model: string;
  servers: readonly string[];
  cwd: string;
  /** Wire frames kept per session; 0 turns wire capture off. */
  wireLimit?: number;
  /**
   * Told once, in a sentence, when the trace cannot be written any more (a full disk): the
   * session goes on without it. Without it, the failure is thrown at the next record.
   */
  onWriteFailure?: (sentence: string) => void;
  /** Larger frames and raw results are kept as a preview of this many characters. */
  maxRecordChars?: number;
  now?: () => Date;
}

export const DEFAULT_WIRE_LIMIT = 5000;
export const DEFAULT_MAX_RECORD_CHARS = 200_000;
/** Lines of a crashed server's stderr kept with its exit. */
const STDERR_TAIL_LINES = 20;
/** Non-JSON stdout lines kept per session: enough to show the bug, not a flood. */
const MAX_NOISE_RECORDS = 100;
/**
 * Update records kept per server: a server may send resources/updated without end, and each one
 * is a line. Past this, updates are counted and one record at the end says how many were left out.
 */
export const MAX_UPDATE_RECORDS = 200;

/**
 * A record waiting for the end of its turn, `ts` being when it was made: an engine event, or one
 * of the recorder's own, made (a large frame cut to a preview) as it is written. Both are
 * redacted as they are written.
 */
type PendingRecord =
  { own: false; record: object; ts: number } | { own: true; make: () => object; ts: number };

/**
 * Records a session: events, JSON-RPC frames and raw tool results, one redacted JSON line each.
 * A record is serialized, redacted and written at the end of the event-loop turn that made it,
 * with the rest of that turn's (TurnEndWriter), so a tool call does not wait for its seven
 * records; nothing is left unwritten while mcpterm waits for anything, so a crash or a kill
 * loses at most the records of the turn in flight. A turn with a string the full secret rules
 * must read first (checkedLines) is written when they have, a few milliseconds later, or at exit
 * with that string left out. The methods are bound, so they can be handed over as callbacks
 * (`onWire: recorder.wire`).
 */
export class TraceRecorder implements EventSink {
  private fd: number | undefined;
  private readonly writer: TurnEndWriter<PendingRecord>;
  private wireFrames = 0;
  private readonly inputRounds = new InputRounds();
  private noiseRecords = 0;
  /** Per server: the update records written, and those left out past MAX_UPDATE_RECORDS. */
  private readonly updateRecords = new Map<string, { written: number; leftOut: number }>();
  private readonly wireLimit: number;
  private readonly maxRecordChars: number;
  private readonly now: () => Date;

  private constructor(
    readonly file: string,
    readonly sessionId: string,
    private readonly options: TraceRecorderOptions,
  ) {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    this.fd = openTraceFile(file, options.cwd);
    // A trace holds the whole conversation: the user's alone, like a saved session, also when
    // `--trace` names a file that already exists. Not a terminal or a pipe (`--trace /dev/stderr`),
    // nor a file of someone else's that the user may write to.
    const opened = fstatSync(this.fd);
    if (opened.isFile() && opened.uid === process.getuid?.()) fchmodSync(this.fd, TRACE_FILE_MODE);
    this.wireLimit = options.wireLimit ?? DEFAULT_WIRE_LIMIT;
    this.maxRecordChars = options.maxRecordChars ?? DEFAULT_MAX_RECORD_CHARS;
    this.now = options.now ?? (() => new Date());
    const { onWriteFailure } = options;
    this.writer = new TurnEndWriter(
      this.fd,
      (pending) => this.lines(pending),
      onWriteFailure &&
        ((error) =>
          onWriteFailure(
            `The trace could not be written to ${file} (${errorMessage(error)}); the session goes on without it.`,
          )),
    );
  }

  static open(options: TraceRecorderOptions): TraceRecorder {
    const started = options.now?.() ?? new Date();
    const sessionId = newSessionId(started);
    const file = options.file ?? path.join(options.dir, `${sessionId}.jsonl`);
    const recorder = new TraceRecorder(file, sessionId, options);
    recorder.append({
      type: "session_start",
      sessionId,
      version: MCPTERM_VERSION,
      model: options.model,
      servers: [...options.servers],
      cwd: options.cwd,
    });
    return recorder;
  }

  /** An engine event (the Session's sink); the session already removed its secrets (SessionOutput). */
  readonly write = (record: object): void => {
    if (this.fd !== undefined) this.writer.add({ own: false, record, ts: this.now().getTime() });
  };

  /** Each server's state once connecting settled, so a failed start is in the trace with its cause. */
  readonly servers = (snapshots: readonly ServerSnapshot[]): void => {
    this.append({
      type: "servers",
      servers: snapshots.map((server) => {
        const { toolCount, ...summary } = summarizeServer(server);
        return { ...summary, tools: toolCount };
      }),
    });
  };

  /**
   * One JSON-RPC message; after `wireLimit` frames a single `wire_truncated` note ends capture.
   * An `input_required` answer also gets its own record, kept past the limit: one per round.
   */
  readonly wire = (frame: WireFrame): void => {
    const round = this.inputRounds.frame(frame);
    if (round !== undefined) this.append(round);
    if (this.wireFrames > this.wireLimit) return;
    this.wireFrames += 1;
    if (this.wireFrames > this.wireLimit) {
      if (this.wireLimit > 0) this.append({ type: "wire_truncated", limit: this.wireLimit });
      return;
    }
    const { message, ...rest } = frame;
    this.later(() => ({ type: "wire", ...rest, ...this.bounded("message", message) }));
  };

  /** A tool result as the server sent it, before it was shaped for the model. */
  readonly rawResult = (callId: string, result: CallToolResult): void => {
    this.later(() => ({ type: "raw_result", callId, ...this.bounded("result", result) }));
  };

  /** A server's process that ended while the session ran, with the stderr lines that matter. */
  readonly serverExit = (server: string, report: ServerExitReport): void => {
    const { code, signal, errorLine, location, cause, stderr } = report;
    this.append({
      type: "server_exit",
      server,
      code,
      signal,
      ...(errorLine === undefined ? {} : { errorLine }),
      ...(location === undefined ? {} : { location }),
      ...(cause === undefined ? {} : { cause }),
      stderrTail: stderr.slice(-STDERR_TAIL_LINES),
    });
  };

  /** A line a stdio server wrote to stdout that is not JSON-RPC; past MAX_NOISE_RECORDS, not kept. */
  readonly stdoutNoise = (server: string, line: string): void => {
    this.noiseRecords += 1;
    if (this.noiseRecords <= MAX_NOISE_RECORDS) this.append({ type: "stdout_noise", server, line });
  };

  /** A subscription stream opened or closed, an update to a subscribed resource (subscriptions.ts). */
  readonly subscription = (event: SubscriptionEvent): void => {
    if (event.kind === "updated") {
      const counted = this.updateRecords.get(event.server) ?? { written: 0, leftOut: 0 };
      this.updateRecords.set(event.server, counted);
      if (counted.written >= MAX_UPDATE_RECORDS) {
        counted.leftOut += 1;
        return;
      }
      counted.written += 1;
    }
    this.append({ type: "subscription", ...event });
  };

  /** A list page or read answered from what the server said may be kept, not sent to it. */
  readonly cacheHit = (hit: CacheHit): void => {
    this.append({ type: "cache_hit", ...hit });
  };

  /** A server's sampling or elicitation request and what became of it (no typed values). */
  readonly serverRequest = (record: ServerRequestRecord): void => {
    this.append(record);
  };

  close(): void {
    if (this.fd === undefined) return;
    for (const [server, { leftOut }] of this.updateRecords)
      if (leftOut > 0)
        this.append({
          type: "subscription",
          kind: "updates_left_out",
          server,
          count: leftOut,
          kept: MAX_UPDATE_RECORDS,
        });
    this.append({ type: "session_end" });
    this.writer.close();
    closeSync(this.fd);
    this.fd = undefined;
  }

  /**
   * The value itself, or past maxRecordChars a preview: the part of it the preview can reach,
   * redacted as a value with the rest of the record, then written as text cut to length (see
   * preview-part.ts), so the redaction reads every string and name whole, as it was sent.
   */
  private bounded(key: string, value: unknown): Record<string, unknown> {
    const text = jsonOf(value);
    if (text !== undefined && text.length <= this.maxRecordChars) return { [key]: value };
    const part = previewPart(value, this.maxRecordChars);
    // Nested deeper than JSON.stringify follows, a value's length is that of the part kept.
    const chars = text?.length ?? JSON.stringify(part).length;
    return { preview: part, chars, [PREVIEW]: true };
  }

  /** A record of the recorder's own (server states, session start and end): redacted as it is written. */
  private append(record: object): void {
    this.later(() => record);
  }

  /**
   * A record of the recorder's own, made as it is written. What it refers to (a frame as it was
   * sent or parsed, a result) is never changed once reported, so the line is the same as if made now.
   */
  private later(make: () => object): void {
    if (this.fd !== undefined) this.writer.add({ own: true, make, ts: this.now().getTime() });
  }

  /** One turn's records as lines, in the order they were made (see checkedLines). */
  private lines(pending: readonly PendingRecord[]): Rendered {
    const records = pending.map((entry) => ({ ...(entry.own ? entry.make() : entry.record), ts: entry.ts }));
    const { now, checked } = redactedRecords(records, this.options.redaction);
    const previewed = records.map((record) => PREVIEW in record);
    // Escaped where a person's terminal would act on it: a trace is read with cat and tail -f too.
    const text = (lines: readonly string[]): string =>
      fileSafeJson(
        `${lines.map((line, index) => (previewed[index] ? previewAsText(line, this.maxRecordChars) : line)).join("\n")}\n`,
      );
    return checked ? { now: text(now), checked: checked.then(text) } : text(now);
  }

  /** Resolves once every record made so far is written with its secrets checked (before close). */
  settled(): Promise<void> {
    return this.writer.settled();
  }
}

/** The JSON of a value, or undefined when it is nested deeper than JSON.stringify can follow. */
function jsonOf(value: unknown): string | undefined {
  try {
    return value === undefined ? "null" : JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * checkedLines, or, for records nested deeper than its walk can follow, the same records with
 * what lies too deep left out: a hostile server's answer must not stop the trace.
 */
function redactedRecords(
  records: readonly object[],
  redaction: RecordRedaction,
): ReturnType<typeof checkedLines> {
  try {
    return checkedLines(records, redaction);
  } catch (error) {
    // Only a walk that ran out of stack: a turn too large to join ("Invalid string length") is not helped.
    if (!(error instanceof RangeError) || !error.message.includes("call stack")) throw error;
    return checkedLines(
      records.map((record) => withinDepth(record) as object),
      redaction,
    );
  }
}
