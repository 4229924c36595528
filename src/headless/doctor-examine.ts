import type { CommonArgs } from "../args/index.js";
import type { CliIo } from "../common/cli-io.js";
import type { McptermConfig, ServerConfig } from "../core/config/index.js";
import { serverEnvironment } from "../core/config/server-environment.js";
import { findCommand } from "../core/mcp/command-lookup.js";
import { protocolFacts } from "../core/mcp/protocol-facts.js";
import type { ServerExitReport } from "../core/mcp/server-exit.js";
import { isCutByExit } from "../core/mcp/stdout-noise.js";
import { lintTools } from "../core/mcp/tool-lint.js";
import { signInMode } from "../core/oauth/sign-in-mode.js";
import { credentialsInUse, expiresAt } from "../core/oauth/issued-credentials.js";
import type { SecretRedactor } from "../core/policy/redact-secrets.js";
import { userOAuthStore } from "../core/session/session-oauth.js";
import { sampleCalls } from "./doctor-calls.js";
import type { DoctorFacts, SignInFacts } from "./doctor-steps.js";
import { WireWatch } from "./doctor-wire.js";
import { commandManager, debugStderr } from "./with-one-server.js";
import { startUnlessInterrupted } from "./interruptible-start.js";

export interface ExamineOptions {
  config: McptermConfig;
  common: CommonArgs;
  io: CliIo;
  redactor: SecretRedactor;
  /** Call the read-only tools with generated arguments. */
  calls: boolean;
  /** How long each sample call may take. */
  timeoutMs: number;
}

/** What a failed start says when the process could not be started at all (stdio-process-transport.ts). */
const SPAWN_FAILURE = /^(?:command ".*" (?:was not found|is not executable)|could not start ")/;

/**
 * Starts one server and watches everything it does on the way to being used — where its command
 * is, what it writes to stdout and stderr, the handshake and its timings, the sign-in, the lists,
 * the lint, a call of each read-only tool — and stops it. Nothing here judges; doctor-steps.ts does.
 */
export async function examineServer(server: ServerConfig, options: ExamineOptions): Promise<DoctorFacts> {
  const { io, redactor } = options;
  const wire = new WireWatch();
  const noise: string[] = [];
  let cutByExit = 0;
  const exits: ServerExitReport[] = [];
  const manager = await commandManager(
    { config: options.config, common: options.common },
    [{ ...server, disabled: false }],
    io,
    redactor,
    {
      ...debugStderr(options.common, io),
      onWire: wire.onFrame,
      onStdoutNoise: (_server, line, leftByExit) => {
        noise.push(line);
        if (isCutByExit(line, leftByExit)) cutByExit += 1;
      },
    },
  );
  try {
    await startUnlessInterrupted(manager, io.signal);
    const connection = manager.connection(server.name);
    await connection?.catalogSettled();
    const start = connection?.snapshot() ?? manager.servers()[0];
    if (!connection || !start) throw new Error(`no connection for "${server.name}"`);
    // A server that exited as mcpterm closed its stdin (the handshake failed) did not fail by it.
    const startExit = connection.ownExitReport();
    if (startExit) exits.push(startExit);
    // Taken before the sample calls: a server they crash is started again, with a handshake of its own.
    const handshake = wire.initialize();
    const listingAsked = wire.asked("tools/list");
    const lists = {
      ...timed("tools", wire.timing("tools/list")),
      ...timed("resources", wire.timing("resources/list")),
      ...timed("templates", wire.timing("resources/templates/list")),
      ...timed("prompts", wire.timing("prompts/list")),
    };
    const connected = start.status === "connected";
    const lint = connected
      ? lintTools([
          {
            name: server.name,
            tools: start.tools.map((tool) => tool.definition),
            // The stdout step tells the noise, with every line: lint would only repeat it.
            stdoutNoise: [],
            initializeMs: start.initializeMs,
            probe: start.probe,
            // A tool set aside as not valid MCP is the server's fault: doctor fails on it as `tools` does.
            refusedTools: start.refusedTools,
          },
        ])
      : [];
    const calls = !options.calls
      ? { skipped: "not asked for (--no-calls)" }
      : !connected
        ? { skipped: "the server is not connected" }
        : await sampleCalls(manager, server.name, {
            timeoutMs: options.timeoutMs,
            signal: io.signal,
            onExit: (report) => exits.push(report),
          });
    return {
      launch: launchText(server, redactor),
      typed: options.common.target !== undefined,
      transport: start.transport,
      lookup:
        server.transport === "stdio" && server.command !== undefined
          ? findCommand(server.command, serverEnvironment(io.env, server.env).PATH, server.cwd ?? io.cwd)
          : undefined,
      start,
      spawnError: start.error !== undefined && SPAWN_FAILURE.test(start.error) ? start.error : undefined,
      handshake,
      listingAsked,
      protocol: protocolFacts(start),
      lists,
      counts: {
        tools: start.tools.length,
        resources: start.catalog.resources.length,
        templates: start.catalog.resourceTemplates.length,
        prompts: start.catalog.prompts.length,
      },
      catalogProblems: start.catalog.problems,
      signIn: signInFacts(server, io),
      ...(server.problem === undefined ? {} : { notStarted: redactor.redactText(server.problem) }),
      stdoutNoise: noise,
      stdoutCutByExit: cutByExit,
      exits,
      // The last process's, the one that ran the last calls (a crash's are kept in `exits`).
      stderr: connection.stderrLines(),
      withheldHint: start.status === "connected" ? "" : connection.withheldHint(start.error ?? ""),
      lint,
      calls,
      // Read last: the sample calls' messages are in it too.
      slips: wire.slips(),
    };
  } finally {
    await manager.close();
  }
}

function timed<K extends string, T>(kind: K, timing: T | undefined): Partial<Record<K, T>> {
  return timing === undefined ? {} : ({ [kind]: timing } as Partial<Record<K, T>>);
}

/** `node build/notes.js` (a word with spaces quoted), or the URL, redacted: either may hold a token. */
function launchText(server: ServerConfig, redactor: SecretRedactor): string {
  if (server.transport !== "stdio") return redactor.redactText(server.url ?? "");
  const words = [server.command ?? "", ...server.args].map((word) =>
    /^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word),
  );
  return redactor.redactText(words.join(" "));
}

function signInFacts(server: ServerConfig, io: CliIo): SignInFacts {
  const mode = signInMode(server);
  if (mode !== "browser" || server.url === undefined)
    return { mode, stored: "none", expiresAt: undefined, scopes: [] };
  const inUse = credentialsInUse(userOAuthStore(io.env).get(server.name, server.url));
  const expiry = expiresAt(inUse);
  const stored =
    inUse?.tokens === undefined ? "none" : expiry !== undefined && expiry <= Date.now() ? "expired" : "valid";
  return {
    mode,
    stored,
    expiresAt: expiry,
    scopes: inUse?.tokens?.scope?.split(" ").filter((scope) => scope !== "") ?? [],
  };
}
