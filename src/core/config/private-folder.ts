import { chmodSync, mkdirSync, statSync } from "node:fs";

const PRIVATE_FOLDER_MODE = 0o700;

/**
 * Makes the user's settings folder if it is missing, and keeps it theirs alone (0700): the
 * trusted configs and OAuth tokens in it are nobody else's business. A folder made earlier by
 * hand, or by another program, with a wider mode is tightened when mcpterm writes there; one
 * that belongs to someone else is left as it is.
 */
export function ensurePrivateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const info = statSync(dir);
  if ((info.mode & 0o077) !== 0 && info.uid === process.getuid?.()) chmodSync(dir, PRIVATE_FOLDER_MODE);
}
