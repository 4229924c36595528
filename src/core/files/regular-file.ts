import { readFile, stat } from "node:fs/promises";
import { readFileSync, statSync, type Stats } from "node:fs";

/**
 * What mcpterm reads whole (a config, a trace, a calls file) must be a regular file: opening a
 * FIFO a cloned repository brought (`mkfifo mcp.config.json`) waits for a writer that never
 * comes, and no signal ends that wait, while a link to a device (`/dev/zero`) reads without end.
 * Throws NotARegularFile for anything else; a file that is not there throws as stat does.
 */
export async function assertRegularFile(file: string): Promise<void> {
  const info = await stat(file);
  if (!info.isFile()) throw new NotARegularFile(kindOf(info));
}

/** The file's bytes, once assertRegularFile allowed it. */
export async function readRegularFile(file: string): Promise<Buffer>;
export async function readRegularFile(file: string, encoding: "utf8"): Promise<string>;
export async function readRegularFile(file: string, encoding?: "utf8"): Promise<Buffer | string> {
  await assertRegularFile(file);
  return encoding ? readFile(file, encoding) : readFile(file);
}

/**
 * readRegularFile for a caller that cannot wait (a token request prepared synchronously): a FIFO
 * would block the whole process here, not only the caller.
 */
export function readRegularFileSync(file: string): string {
  const info = statSync(file);
  if (!info.isFile()) throw new NotARegularFile(kindOf(info));
  return readFileSync(file, "utf8");
}

/** Read as a filesystem refusal by the callers that tell those in a sentence (it has a `code`). */
export class NotARegularFile extends Error {
  readonly code = "EFTYPE";
  constructor(kind: string) {
    super(`it is ${kind}, not a regular file`);
  }
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return "a folder";
  if (info.isFIFO()) return "a named pipe (FIFO)";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  if (info.isSocket()) return "a socket";
  return "not a file";
}
