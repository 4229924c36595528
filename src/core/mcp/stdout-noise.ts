import { truncateEnd } from "../text/index.js";

const NOISE_WIDTH = 160;

/** What a person is told of a line a stdio server wrote to stdout that is not JSON-RPC. */
export function stdoutNoiseSentence(server: string, line: string): string {
  return `server "${server}" wrote to stdout, which is for JSON-RPC only (log to stderr): ${JSON.stringify(truncateEnd(line, NOISE_WIDTH))}`;
}
