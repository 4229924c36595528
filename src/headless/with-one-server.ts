import type { CommonArgs } from "../args/index.js";
import type { CliIo } from "../common/cli-io.js";
import { loadCommandConfig } from "../common/load-project-config.js";
import { settleServerStart } from "./trust-gate.js";
import { startUnlessInterrupted } from "./interruptible-start.js";
import type { McptermConfig, ServerConfig } from "../core/config/index.js";
import { ServerUnavailableError, UsageError } from "../core/errors.js";
import { McpManager, type McpManagerOptions } from "../core/mcp/mcp-manager.js";
import { RootList } from "../core/mcp/roots.js";
import { isErrorLevel, loggedSentence } from "../core/mcp/server-log.js";
import { declineServerRequests } from "../core/person/decline-server-requests.js";
import { sanitizeOneLine } from "../core/policy/sanitize-terminal.js";
import type { ServerConnection } from "../core/mcp/server-connection.js";
import type { SignInPerson } from "../core/oauth/server-auth.js";
import type { SecretRedactor } from "../core/policy/redact-secrets.js";
import { sessionOAuth } from "../core/session/session-oauth.js";
import { sessionRedactor } from "../core/session/session-redactor.js";

/**
 * The named server's config, or a usage error that lists the servers there are, or says that
 * no config was found (run from another folder, the usual newcomer's slip).
 */
export function requireServerConfig(config: McptermConfig, name: string): ServerConfig {
  const server = config.servers.find((candidate) => candidate.name === name);
  if (server) return server;
  if (config.path === undefined)
    throw new UsageError(
      `There is no server named "${name}": this folder has no mcp.config.json; run mcpterm from the project's folder, or name its config with --config.`,
    );
  const known = config.servers.map((candidate) => candidate.name).join(", ") || "none";
  throw new UsageError(`There is no server named "${name}" in ${config.path} (servers: ${known}).`);
}

/**
 * The servers of a command that is not a session (`tools`, `call`, `read`, `resources`,
 * `prompts`, `dev`, `replay`, `auth login`), connected as a session would be: offered the working
 * folder as a root (some servers list tools only to clients with roots), their output redacted.
 * Sampling and forms are declined, each with a line on stderr: nobody is asked here. Nothing
 * starts before the project's config is trusted (settleServerStart).
 */
export async function commandManager(
  project: { config: McptermConfig; common: CommonArgs },
  servers: readonly ServerConfig[],
  io: CliIo,
  redactor: SecretRedactor,
  extra: Pick<
    McpManagerOptions,
    "onLog" | "onStderr" | "onStdoutNoise" | "onWire" | "shutdownGraceMs" | "onSubscription"
  > = {},
  signIn?: SignInPerson,
): Promise<McpManager> {
  await settleServerStart(project.config, servers, project.common, io, redactor);
  return new McpManager([...servers], {
    // A server that does not stop when its stdin closes is signalled soon after: the person
    // waits for a one-off command, and a stuck call's server would hold them for seconds.
    shutdownGraceMs: ONE_OFF_GRACE_MS,
    // A one-off command reports a server's loss (a crash: its exit code and error line) and ends;
    // bringing it back is a session's work (`mcpterm dev` restarts servers on its own).
    restartCrashed: false,
    ...extra,
    parentEnv: io.env,
    redact: redactor.redactText,
    roots: new RootList([io.cwd]),
    // Told as a warning: declining is what a command with nobody to ask does, not a failure.
    requests: declineServerRequests(declinesTold(io, redactor)),
    // Stored sign-ins are used; a needed one names `mcpterm auth login` (which passes `signIn`).
    oauth: sessionOAuth(io.env, redactor, () => signIn),
  });
}

/** The same declined request told at most this often per command; a server may send thousands. */
const MAX_DECLINES_TOLD = 5;

/** How a one-off command tells what it declined: each kind a few times, then once that it goes on. */
function declinesTold(io: CliIo, redactor: SecretRedactor): (text: string) => void {
  const told = new Map<string, number>();
  return (text) => {
    const count = (told.get(text) ?? 0) + 1;
    told.set(text, count);
    if (count > MAX_DECLINES_TOLD + 1) return;
    const more = count > MAX_DECLINES_TOLD ? " More like it are declined without a word." : "";
    io.stderr.write(`warning: ${sanitizeOneLine(redactor.redactText(text))}${more}\n`);
  };
}

/** How long a one-off command's server has to exit after its stdin closes, and again after SIGTERM. */
const ONE_OFF_GRACE_MS = 500;

/**
 * With --debug, every line the servers write to stderr, as it comes, marked with the server's
 * name (redacted, cut to 2,000 characters); without it, only the lines that matter are told, in
 * the sentence that says a server failed.
 */
export function debugStderr(common: CommonArgs, io: CliIo): Pick<McpManagerOptions, "onStderr"> {
  if (!common.debug) return {};
  return { onStderr: (server, line) => void io.stderr.write(`[${server}] ${line}\n`) };
}

/**
 * What a command tells on stderr of its servers as it runs: with `--debug`, every line they write
 * to stderr; always, a log message at least as severe as an error, as a session tells it (a
 * server that logs `connection pool exhausted` as it answers a call is saying why).
 */
export function serverOutputs(common: CommonArgs, io: CliIo): Pick<McpManagerOptions, "onStderr" | "onLog"> {
  const told = new Map<string, number>();
  return {
    ...debugStderr(common, io),
    onLog: (entry) => {
      if (!isErrorLevel(entry.level)) return;
      // A server that logs an error per item of a long call would bury the answer: the first
      // few are the ones that say why, and one line says the rest were left out.
      const count = (told.get(entry.server) ?? 0) + 1;
      told.set(entry.server, count);
      if (count <= MAX_LOGGED_ERRORS) io.stderr.write(`warning: ${sanitizeOneLine(loggedSentence(entry))}\n`);
      else if (count === MAX_LOGGED_ERRORS + 1)
        io.stderr.write(
          `warning: server "${sanitizeOneLine(entry.server)}" logged more errors; they are not shown here (mcpterm dev shows every one).\n`,
        );
    },
  };
}

/** Error-level log messages a command prints per server before it stops printing them. */
const MAX_LOGGED_ERRORS = 20;

/**
 * Starts the config's servers (only `only`, when named), hands the started manager to `work`
 * with the redactor for what it prints, and stops them afterwards. Servers that fail are marked
 * so, not thrown: `tools`, `resources` and `prompts` report them.
 */
export async function withServers<T>(
  common: CommonArgs,
  only: string | undefined,
  io: CliIo,
  work: (manager: McpManager, redactor: SecretRedactor, config: McptermConfig) => Promise<T>,
): Promise<T> {
  const config = await loadCommandConfig(common, io);
  const servers = only === undefined ? config.servers : [requireServerConfig(config, only)];
  const redactor = sessionRedactor(config, io.env);
  const manager = await commandManager({ config, common }, servers, io, redactor, serverOutputs(common, io));
  try {
    await startUnlessInterrupted(manager, io.signal);
    return await work(manager, redactor, config);
  } finally {
    await manager.close();
  }
}

/**
 * Starts just the named server (even if the config disables it: naming it is the request),
 * hands it to `work` with the redactor for what it prints, and stops it afterwards. A server
 * that cannot start is a ServerUnavailableError (exit 4). `refuse` may turn the entry down before anything
 * starts (a usage error, exit 2); `signIn` is who signs in when the server asks (`auth login`).
 */
export async function withOneServer<T>(
  common: CommonArgs,
  name: string,
  io: CliIo,
  work: (manager: McpManager, connection: ServerConnection, redactor: SecretRedactor) => Promise<T>,
  options: {
    signIn?: SignInPerson;
    refuse?: (server: ServerConfig) => string | undefined;
    /** What the command itself watches: stdout noise mid-call, the wire. */
    extra?: Pick<McpManagerOptions, "onStdoutNoise" | "onWire" | "onSubscription">;
    /** The server to start, chosen from the config's names instead of `name` (see callTarget). */
    choose?: (names: readonly string[]) => string;
  } = {},
): Promise<T> {
  const config = await loadCommandConfig(common, io);
  const server = requireServerConfig(
    config,
    options.choose?.(config.servers.map((candidate) => candidate.name)) ?? name,
  );
  const refusal = options.refuse?.(server);
  if (refusal) throw new UsageError(refusal);
  const redactor = sessionRedactor(config, io.env);
  const manager = await commandManager(
    { config, common },
    [{ ...server, disabled: false }],
    io,
    redactor,
    { ...serverOutputs(common, io), ...options.extra },
    options.signIn,
  );
  try {
    // Ctrl+C while a sign-in waits for the browser, too: closing the server gives the wait up.
    return await startUnlessInterrupted(manager, io.signal, () => {
      const connection = manager.connection(server.name);
      const snapshot = manager.servers()[0];
      if (!connection || snapshot?.status !== "connected") {
        throw new ServerUnavailableError(
          // The reason may be a sentence of its own, ending in its full stop.
          `Server "${server.name}" could not be started: ${(snapshot?.error ?? "unknown error").replace(/\.$/, "")}.`,
        );
      }
      return work(manager, connection, redactor);
    });
  } finally {
    await manager.close();
  }
}
