import { revealHiddenText } from "../policy/hidden-text.js";
import { truncateEnd } from "../text/index.js";

const NOISE_WIDTH = 160;

/**
 * What a person is told of a line a stdio server wrote to stdout that is not JSON-RPC: quoted,
 * with its invisible characters written out (`⟨U+FEFF⟩`), or a line that is JSON-RPC but for a
 * byte-order mark before it would look like a well-formed message flagged for nothing.
 */
export function stdoutNoiseSentence(server: string, line: string): string {
  const quoted = JSON.stringify(revealHiddenText(truncateEnd(line, NOISE_WIDTH)));
  if (isCutMessage(line))
    return `server "${server}" wrote a JSON-RPC message to stdout that is not whole (cut off, often by the process exiting before it was written out): ${quoted}`;
  return `server "${server}" wrote to stdout, which is for JSON-RPC only (log to stderr): ${quoted}`;
}

/** The start of a JSON-RPC message that never became one: `{"jsonrpc":"2.0","id":1,"result":{…` cut. */
const MESSAGE_START = /^[ \t]*\{\s*"(?:jsonrpc|id|method|result|error)"\s*:/;

/**
 * Whether a line that is no message began as one: a server that exits before its answer is
 * written out (`process.exit()` after an unflushed write) leaves it unfinished, and "log to
 * stderr" would send its author the wrong way.
 */
export function isCutMessage(line: string): boolean {
  if (!MESSAGE_START.test(line) || !line.includes('"jsonrpc"')) return false;
  // Whole JSON that is no message (an error answer with a null id) was not cut off.
  try {
    JSON.parse(line);
    return false;
  } catch {
    return true;
  }
}
