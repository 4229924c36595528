/** How a server process ended: its exit code, or the signal that stopped it. */
export interface ProcessEnd {
  code: number | null;
  signal: string | null;
}

/**
 * What a crashed server left in its stderr that a person needs first: the line naming the error
 * (`TypeError: …`, `KeyError: 'title'`, `panic: …`), where it was thrown, and what caused it.
 * A Node crash report ends in a dozen frames of node:internal and a version line, so the tail of
 * stderr alone hides the very line that says what went wrong.
 */
export interface StderrEssentials {
  errorLine: string | undefined;
  /** Where it was thrown: `file:///srv/notes.js:40:27`, `/srv/server.py:12 (in handle)`. */
  location: string | undefined;
  /**
   * The error behind it: Node's `[cause]:`, Java's `Caused by:`. (Python prints a chain's cause
   * first, so its first reported exception is already the cause.)
   */
  cause: string | undefined;
}

/** A server that exited: how, the lines that matter, and its whole stderr (kept, redacted) for --debug. */
export interface ServerExitReport extends ProcessEnd, StderrEssentials {
  stderr: string[];
  /** Why mcpterm stopped it, as its fault (`the server sent one message of more than 64.0 MB; …`): what ended it. */
  cutOff?: string;
}

/** `TypeError: x`, `Error [ERR_MODULE_NOT_FOUND]: x`, `KeyError: 'title'`, `Uncaught Error: x`. */
const NAMED_ERROR =
  /^(?:Uncaught )?(?:[A-Z][\w$.]*(?:Error|Exception|Exit|Interrupt)|Error|Exception)(?: \[[\w-]+\])?(?::\s|$)/;
/** Go's `panic: …`, Rust's `thread 'main' panicked at …`, C's and others' `fatal error: …`. */
const OTHER_CRASH = /^(?:panic: |thread '.*' panicked at |fatal(?: error)?: |FATAL |Segmentation fault)/;
/** Any line that says error, as a last resort. */
const LOOSE_ERROR = /\b(?:error|fatal|panic|exception|failed)\b/i;
const JS_FRAME = /^\s+at (?:.* \()?(.+?)\)?$/;
const PYTHON_FRAME = /^\s+File "(.+)", line (\d+)(?:, in (.+))?$/;
/** Node's header above a code excerpt: `file:///srv/notes.js:40`, `/srv/notes.js:40`. */
const NODE_HEADER = /^((?:file:\/\/|\/|[A-Za-z]:\\)\S*:\d+)$/;
const NODE_VERSION_LINE = /^Node\.js v\d+/;

/** Finds the lines that matter in a server's stderr (oldest first); see StderrEssentials. */
export function stderrEssentials(lines: readonly string[]): StderrEssentials {
  const text = lines.map((line) => line.trimEnd());
  const at = errorLineIndex(text);
  if (at === undefined) {
    const last = [...text].reverse().find((line) => line.trim() !== "" && !NODE_VERSION_LINE.test(line));
    return { errorLine: last?.trim(), location: undefined, cause: undefined };
  }
  return {
    errorLine: text[at]?.trim(),
    location: locationOf(text, at),
    cause: causeOf(text, at),
  };
}

/**
 * The error that was reported with a stack (a crash, not a log line that mentions "error"): the
 * first line naming an error that a stack trace follows or a Python traceback leads to; else the
 * first line naming an error, else the first crash line of another language, else the first
 * line that says error.
 */
function errorLineIndex(text: readonly string[]): number | undefined {
  const named = text.flatMap((line, index) => (NAMED_ERROR.test(line) ? [index] : []));
  const reported = named.find((index) => JS_FRAME.test(text[index + 1] ?? "") || afterTraceback(text, index));
  if (reported !== undefined) return reported;
  if (named[0] !== undefined) return named[0];
  const crash = text.findIndex((line) => OTHER_CRASH.test(line));
  if (crash !== -1) return crash;
  const loose = text.findIndex((line) => LOOSE_ERROR.test(line));
  return loose === -1 ? undefined : loose;
}

/** A Python exception line comes right after its traceback's frames and code lines. */
function afterTraceback(text: readonly string[], index: number): boolean {
  for (let back = index - 1; back >= 0; back -= 1) {
    const line = text[back] ?? "";
    if (line === "Traceback (most recent call last):") return true;
    if (!/^\s/.test(line)) return false;
  }
  return false;
}

function locationOf(text: readonly string[], at: number): string | undefined {
  // Python: the innermost frame, the last one above the exception.
  for (let back = at - 1; back >= 0 && /^\s/.test(text[back] ?? ""); back -= 1) {
    const frame = PYTHON_FRAME.exec(text[back] ?? "");
    if (frame) return `${frame[1]}:${frame[2]}${frame[3] ? ` (in ${frame[3]})` : ""}`;
  }
  // JavaScript: the first frame in the server's own code, not Node's nor a dependency's.
  for (let next = at + 1; next < text.length; next += 1) {
    const frame = JS_FRAME.exec(text[next] ?? "");
    if (!frame) break;
    const where = frame[1] ?? "";
    // `JSON.parse (<anonymous>)` and `native` frames name no place in a file.
    if (/:\d+$/.test(where) && !where.startsWith("node:") && !where.includes("/node_modules/")) return where;
  }
  // Node prints the file and line above the code it could not run (a SyntaxError has no own frame).
  for (let back = at - 1; back >= Math.max(0, at - 6); back -= 1) {
    const header = NODE_HEADER.exec(text[back] ?? "");
    if (header && !text[back]?.startsWith("node:")) return header[1];
  }
  const rust = /panicked at (\S+?):?$/.exec(text[at] ?? "");
  return rust?.[1];
}

function causeOf(text: readonly string[], at: number): string | undefined {
  for (let next = at + 1; next < text.length; next += 1) {
    const line = (text[next] ?? "").trim();
    const node = /^\[cause\]: (.+)$/.exec(line);
    if (node) return node[1]?.replace(/ \{$/, "");
    const java = /^Caused by: (.+)$/.exec(line);
    if (java) return java[1];
    if (NODE_VERSION_LINE.test(line)) break;
  }
  return undefined;
}

/** The report of a server process that ended, from its exit and its (redacted) stderr lines. */
export function serverExitReport(end: ProcessEnd, stderr: readonly string[]): ServerExitReport {
  return { code: end.code, signal: end.signal, ...stderrEssentials(stderr), stderr: [...stderr] };
}

/** `exited (code 1)`, `was killed by SIGKILL`. */
export function howItEnded(end: ProcessEnd): string {
  if (end.signal) return `was killed by ${end.signal}`;
  return end.code === null ? "exited" : `exited (code ${end.code})`;
}

/** `TypeError: x (at file:///srv/notes.js:40:27; cause: Error: ENOENT …)`, or undefined when stderr said nothing. */
export function essentialsText(essentials: StderrEssentials): string | undefined {
  const { errorLine, location, cause } = essentials;
  if (errorLine === undefined) return undefined;
  const extra = [location ? `at ${location}` : undefined, cause ? `cause: ${cause}` : undefined].filter(
    (part) => part !== undefined,
  );
  return extra.length === 0 ? errorLine : `${errorLine} (${extra.join("; ")})`;
}

/** `server "notes" exited (code 1): TypeError: … (at …)`: one sentence for every place that tells a crash. */
export function exitSentence(server: string, report: ServerExitReport): string {
  if (report.cutOff !== undefined) return `server "${server}": ${report.cutOff}`;
  const said = essentialsText(report);
  return `server "${server}" ${howItEnded(report)}${said === undefined ? "" : `: ${said}`}`;
}

/** A report as data for `--json`: how it ended and the lines that matter (null when not found). */
export function exitFacts(report: ServerExitReport): {
  code: number | null;
  signal: string | null;
  errorLine: string | null;
  location: string | null;
  cause: string | null;
} {
  return {
    code: report.code,
    signal: report.signal,
    errorLine: report.errorLine ?? null,
    location: report.location ?? null,
    cause: report.cause ?? null,
  };
}
