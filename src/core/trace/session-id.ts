import { randomBytes } from "node:crypto";

/**
 * A session id that sorts by start time, so the newest trace is the last file name, with a
 * short random tail so two sessions started in the same millisecond do not share a file.
 */
export function newSessionId(now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace("T", "-")
    .replace(/\.(\d{3})Z$/, "-$1");
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}
