import { revealHiddenText } from "../policy/hidden-text.js";
import { truncateEnd } from "../text/index.js";

const NOISE_WIDTH = 160;

/**
 * What a person is told of a line a stdio server wrote to stdout that is not JSON-RPC: quoted,
 * with its invisible characters written out (`⟨U+FEFF⟩`), or a line that is JSON-RPC but for a
 * byte-order mark before it would look like a well-formed message flagged for nothing.
 */
export function stdoutNoiseSentence(server: string, line: string): string {
  return `server "${server}" wrote to stdout, which is for JSON-RPC only (log to stderr): ${JSON.stringify(revealHiddenText(truncateEnd(line, NOISE_WIDTH)))}`;
}
