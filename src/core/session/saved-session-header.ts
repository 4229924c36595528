import type { SessionHeader } from "./saved-session.js";

// Apart from the schemas that read sessions back (saved-session.ts, which loads zod), so that
// writing a session loads nothing a run that never resumes one does not need.
export const SESSION_FORMAT = "mcpterm-session";
export const SESSION_FORMAT_VERSION = 1;

/** The header line a new session file starts with; `mark` proves whose it is (SessionMarks). */
export function sessionHeader(id: string, createdAt: string, cwd: string, mark?: string): SessionHeader {
  return {
    type: "session",
    format: SESSION_FORMAT,
    version: SESSION_FORMAT_VERSION,
    id,
    createdAt,
    cwd,
    ...(mark === undefined ? {} : { mark }),
  };
}
