import { sanitizeOneLine } from "../policy/sanitize-terminal.js";
import type { LoggingLevel } from "../deprecated-mcp.js";

/** The syslog levels MCP logging uses, least severe first. */
export const LOG_LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

export function isLogLevel(text: string): text is LoggingLevel {
  return (LOG_LEVELS as readonly string[]).includes(text);
}

/** At least this severe, a server's log message is also told to the person as it arrives. */
export function isErrorLevel(level: LoggingLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf("error");
}

/**
 * `server "notes" logged error (db): connection refused`: how a log message at least as severe
 * as an error is told as it arrives, in a session's transcript and on a command's stderr. One
 * line: a server's line breaks could draw what looks like mcpterm's own transcript (a `›` line
 * as if the person had typed it); `/mcp logs` keeps the message whole.
 */
export function loggedSentence(entry: ServerLogEntry): string {
  const logger = entry.logger === undefined || entry.logger === "" ? "" : ` (${entry.logger})`;
  return sanitizeOneLine(`server "${entry.server}" logged ${entry.level}${logger}: ${entry.text}`);
}

/** One `notifications/message` from a server, or one of mcpterm's own notes about it. */
export interface ServerLogEntry {
  server: string;
  /** Milliseconds since the epoch, when it arrived. */
  at: number;
  level: LoggingLevel;
  /** The logger the server named, or "mcpterm" for mcpterm's own notes. */
  logger: string | undefined;
  /** The message data as text, redacted; the connection never keeps the unredacted form. */
  text: string;
}

const MAX_TEXT = 2000;

/**
 * A server's log messages, the newest `limit` of them, each with its time and level. Text is
 * capped so one flood of a message cannot hold memory.
 */
export class ServerLog {
  private readonly entries: ServerLogEntry[] = [];
  private dropped = 0;

  constructor(private readonly limit = 500) {}

  push(entry: ServerLogEntry): ServerLogEntry {
    const kept =
      entry.text.length > MAX_TEXT ? { ...entry, text: `${entry.text.slice(0, MAX_TEXT)}…` } : entry;
    this.entries.push(kept);
    if (this.entries.length > this.limit) {
      this.entries.shift();
      this.dropped += 1;
    }
    return kept;
  }

  snapshot(): ServerLogEntry[] {
    return [...this.entries];
  }

  get droppedCount(): number {
    return this.dropped;
  }
}

/** `14:03:07.120 [error] db: connection refused`: one entry as a line, in local time. */
export function formatLogEntry(entry: ServerLogEntry): string {
  const time = new Date(entry.at);
  const clock = [time.getHours(), time.getMinutes(), time.getSeconds()]
    .map((part) => String(part).padStart(2, "0"))
    .join(":");
  const ms = String(time.getMilliseconds()).padStart(3, "0");
  return `${clock}.${ms} [${entry.level}]${entry.logger ? ` ${entry.logger}:` : ""} ${entry.text}`;
}

/** A log message's data as one line of text: strings as they are, anything else as JSON. */
export function logDataText(data: unknown): string {
  if (typeof data === "string") return data;
  try {
    // undefined (and functions) have no JSON text.
    const json = JSON.stringify(data) as string | undefined;
    return json ?? String(data);
  } catch {
    return String(data);
  }
}
