import type { LogMessageParams, LoggingLevel } from "../deprecated-mcp.js";
import { EarlierProcesses } from "./earlier-processes.js";
import { formatLogEntry, logDataText, ServerLog, type ServerLogEntry } from "./server-log.js";
import type { StdioProcessTransport } from "./stdio-process-transport.js";

/** How much of one log message is read: what the log keeps (2,000) and a margin to redact in. */
const LOG_TEXT_READ = 6000;

export interface ConnectionLogOptions {
  server: string;
  /** Applied to everything kept, before anyone can read it. */
  redact: (text: string) => string;
  /** Each log message as it arrives (already kept), and mcpterm's notes above info. */
  onLog?: ((entry: ServerLogEntry) => void) | undefined;
  /** The server's running process, whose stderr and stray stdout are read; none for a remote server. */
  process: () => StdioProcessTransport | undefined;
}

/**
 * What one server said, kept for /mcp logs and error texts: its log messages, mcpterm's own
 * notes about it, and what its processes wrote to stderr and (not JSON-RPC) to stdout, the
 * running one's and those before a restart. Everything leaves here redacted.
 */
export class ConnectionLog {
  private readonly log = new ServerLog(500);
  private readonly earlier = new EarlierProcesses();

  constructor(private readonly options: ConnectionLogOptions) {}

  /** Keeps one `notifications/message` from the server and passes it on. */
  keep({ level, logger, data }: LogMessageParams): void {
    const { redact, server } = this.options;
    const entry = this.log.push({
      server,
      at: Date.now(),
      level,
      // Cut (with a margin for a secret at the edge) before redacting: a log line is kept at
      // 2,000 characters, and a 10 MB one is not redacted whole to keep that much of it.
      logger: logger === undefined ? undefined : redact(logger.slice(0, 200)),
      text: redact(logDataText(data).slice(0, LOG_TEXT_READ)),
    });
    this.options.onLog?.(entry);
  }

  /** One of mcpterm's own notes about this server, kept with its log messages. */
  note(level: LoggingLevel, text: string): void {
    const entry = this.log.push({
      server: this.options.server,
      at: Date.now(),
      level,
      logger: "mcpterm",
      text: this.options.redact(text),
    });
    if (level !== "info" && level !== "debug") this.options.onLog?.(entry);
  }

  /** The log messages and notes, oldest first (bounded), one line each with time and level. */
  messages(): string[] {
    return this.log.snapshot().map(formatLogEntry);
  }

  entries(): ServerLogEntry[] {
    return this.log.snapshot();
  }

  /** What the running process wrote to stderr, oldest first (bounded). */
  stderrLines(): string[] {
    return (this.options.process()?.stderr.snapshot() ?? []).map(this.options.redact);
  }

  /** Where the running process's stderr is now, to read what it writes next with stderrSince. */
  stderrMark(): number {
    return this.options.process()?.stderr.written ?? 0;
  }

  /** What the running process wrote to stderr after `mark` (bounded). */
  stderrSince(mark: number): string[] {
    return (this.options.process()?.stderr.since(mark) ?? []).map(this.options.redact);
  }

  /** Lines the running process wrote to stdout that were not JSON-RPC. */
  stdoutNoise(): string[] {
    return (this.options.process()?.stdoutNoise.snapshot() ?? []).map(this.options.redact);
  }

  /** Stderr and stray stdout of every process since mcpterm started, each restart marked. */
  linesSinceStart(): { stderr: string[]; stdout: string[] } {
    return {
      stderr: this.earlier.withStderr(this.stderrLines()),
      stdout: this.earlier.withStdout(this.stdoutNoise()),
    };
  }

  /** Keeps what the running process wrote, before another takes its place. */
  keepProcessLines(): void {
    this.earlier.keep({ stderr: this.stderrLines(), stdout: this.stdoutNoise() }, new Date());
  }
}
