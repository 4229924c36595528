import { revealHiddenText } from "../policy/hidden-text.js";
import { truncateEnd } from "../text/index.js";

const NOISE_WIDTH = 160;

/**
 * What a person is told of a line a stdio server wrote to stdout that is not JSON-RPC: quoted,
 * with its invisible characters written out (`⟨U+FEFF⟩`), or a line that is JSON-RPC but for a
 * byte-order mark before it would look like a well-formed message flagged for nothing.
 */
export function stdoutNoiseSentence(server: string, line: string, leftByExit = false): string {
  const quoted = JSON.stringify(revealHiddenText(truncateEnd(line, NOISE_WIDTH)));
  if (isCutByExit(line, leftByExit))
    return `server "${server}" exited before it finished writing a JSON-RPC message to stdout (the line has no end): ${quoted}`;
  return `server "${server}" wrote to stdout, which is for JSON-RPC only (log to stderr): ${quoted}`;
}

/**
 * The start of a JSON-RPC message: a line the process left unfinished as it exited that begins
 * so is an answer it never finished writing (`process.exit()` after an unflushed write), for
 * which "log to stderr" would send its author the wrong way.
 */
const MESSAGE_START = /^\uFEFF?[ \t]*\{\s*"(?:jsonrpc|id|method|result|error)"\s*:/;

/**
 * Whether a line the process left unfinished as it exited (`leftByExit`) is a JSON-RPC message it
 * never finished writing, rather than logging on stdout.
 */
export function isCutByExit(line: string, leftByExit: boolean): boolean {
  return leftByExit && leftUnfinished(line);
}

/** Whether a line begins as a JSON-RPC message and is not whole JSON (a finished log object is). */
function leftUnfinished(line: string): boolean {
  if (!MESSAGE_START.test(line)) return false;
  try {
    JSON.parse(line.replace(/^\uFEFF/, ""));
    return false;
  } catch {
    return true;
  }
}
