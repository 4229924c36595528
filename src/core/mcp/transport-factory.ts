import type { Transport } from "@modelcontextprotocol/client";
import type { ServerConfig } from "../config/config-types.js";
import { serverEnvironment } from "../config/server-environment.js";
import type { ServerAuth } from "../oauth/server-auth.js";
import type { TransportKind } from "./protocol-era.js";
import { legacySseTransport, streamableHttpTransport } from "./remote-transports.js";
import { StdioProcessTransport } from "./stdio-process-transport.js";

/**
 * Makes the transport of one connection attempt. The connection decides which kinds to try
 * (Streamable HTTP, then the legacy SSE transport for a server that only speaks that); the
 * factory makes them. Tests hand a connection their own factory, e.g. one half of an in-memory
 * pair, and the connection runs over it exactly as over a process or a socket.
 */
export type TransportFactory = (kind: TransportKind) => Transport;

export interface ServerTransportOptions {
  parentEnv: NodeJS.ProcessEnv;
  redact: (text: string) => string;
  onStderr?: (server: string, line: string) => void;
  /** Each line a stdio server writes to stdout that is not JSON-RPC, redacted and cut alike (see StdioProcessOptions). */
  onStdoutNoise?: (server: string, line: string, leftByExit: boolean) => void;
  shutdownGraceMs?: number;
}

/** What a stdio server writes to stderr (or stdout, not JSON-RPC) is passed on cut to this many characters a line. */
const STDERR_LINE_CHARS = 2000;

/** The transports a server entry describes: its command as a child process, or its URL. */
export function serverTransports(
  config: ServerConfig,
  auth: ServerAuth | undefined,
  options: ServerTransportOptions,
): TransportFactory {
  return (kind) => {
    if (kind === "stdio") return stdioTransport(config, options);
    const { url, headers } = config;
    if (!url) throw new Error("no url configured");
    return kind === "sse"
      ? legacySseTransport(url, headers, auth)
      : streamableHttpTransport(url, headers, auth);
  };
}

function stdioTransport(config: ServerConfig, options: ServerTransportOptions): StdioProcessTransport {
  const { command, args, env, cwd, name } = config;
  const { onStderr, onStdoutNoise } = options;
  if (!command) throw new Error("no command configured");
  const cut = (line: string): string =>
    options.redact(line.length > STDERR_LINE_CHARS ? `${line.slice(0, STDERR_LINE_CHARS)}…` : line);
  return new StdioProcessTransport({
    command,
    args,
    env: serverEnvironment(options.parentEnv, env),
    cwd,
    ...(options.shutdownGraceMs === undefined ? {} : { gracePeriodMs: options.shutdownGraceMs }),
    ...(onStderr ? { onStderrLine: (line: string) => onStderr(name, cut(line)) } : {}),
    ...(onStdoutNoise
      ? { onStdoutNoise: (line: string, leftByExit: boolean) => onStdoutNoise(name, cut(line), leftByExit) }
      : {}),
  });
}
