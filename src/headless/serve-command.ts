import type { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { CliArgs } from "../args/index.js";
import { resolveEmbeddingsSettings } from "../core/config/index.js";
import { ExitCode, UsageError } from "../core/errors.js";
import { knowledgeDir, openFreshKnowledge, type RefreshReport } from "../core/kb/index.js";
import { indexFolder } from "../core/kb-docs/document-catalog.js";
import { SecretRedactor } from "../core/policy/redact-secrets.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { watchFolder } from "../servers/knowledge/folder-watcher.js";
import { serveHttp } from "../servers/knowledge/http-serve.js";
import { drainingStdio } from "../servers/knowledge/in-flight.js";
import { createKnowledgeServer } from "../servers/knowledge/knowledge-server.js";
import { KnowledgeService } from "../servers/knowledge/knowledge-service.js";
import { isLoopbackHost } from "../servers/knowledge/request-guard.js";
import type { CliIo } from "../common/cli-io.js";
import { loadProjectConfig } from "../common/load-project-config.js";

type ServeArgs = Extract<CliArgs, { command: "serve" }>;

/**
 * `mcpterm serve`: the knowledge base as an MCP server, on stdio or (`--http`) Streamable HTTP,
 * to clients of either revision: a 2026-07-28 client (server/discover, `_meta` on each request)
 * and a 2025 one (initialize, then a session). stdout belongs to the protocol, so everything else
 * goes to stderr. The folder is watched while
 * serving: a changed document is re-indexed and clients are told the resource list changed.
 * Runs until the client closes stdin (stdio) or the process is told to stop.
 */
export async function runServeCommand(args: ServeArgs, io: CliIo): Promise<ExitCode> {
  const token = bearerToken(args, io.env);
  const config = await loadProjectConfig(args.common, io);
  const say = (text: string): void => void io.stderr.write(`${sanitizeForTerminal(text)}\n`);
  let live: () => McpServer[] = () => [];
  let tellListChanged: () => void = () => undefined;
  // A client that went away mid-notification must not become an unhandled rejection. Only 2025
  // clients get these: a 2026 client hears logs only inside the answer to a request that asked.
  const log = (level: "info" | "warning", data: string): void => {
    for (const server of live())
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated for 2026 clients only; 2025 ones still read these.
      server.sendLoggingMessage({ level, logger: "knowledge", data }).catch(() => undefined);
  };
  const warn = (text: string): void => {
    say(`mcpterm serve: ${text}`);
    log("warning", text);
  };
  // As the assistant does: kb.embeddings (key from the environment) fuses meaning with keywords,
  // and an endpoint that fails turns itself off with one warning, on stderr and to clients' logs.
  const { settings: embeddings, warning } = resolveEmbeddingsSettings(config, io.env, false);
  if (warning) warn(warning);
  const { kb, report } = await openFreshKnowledge(knowledgeDir(args.common.kbDir, config, io.cwd), io.cwd, {
    ...(embeddings ? { embeddings } : {}),
    onWarning: warn,
  });
  const stats = kb.stats();
  say(`mcpterm serve: ${stats.files} files, ${stats.chunks} passages from ${kb.dir}`);
  for (const skipped of report.skipped) say(`skipped ${skipped.path}: ${skipped.reason}`);

  const redactor = SecretRedactor.forSession([], io.env);
  // The token guards this server whatever its variable is called, so no answer may carry it.
  if (token !== undefined) redactor.learn(token);
  const elsewhere = embeddings !== undefined && !isLoopbackHost(new URL(embeddings.baseUrl).hostname);
  const service = new KnowledgeService(kb, redactor.redactText, [indexFolder(io.cwd)], elsewhere);
  await service.catalog.refresh();

  let finished: Promise<void>;
  let stop: () => Promise<void>;
  if (args.http === undefined) {
    const stdio = drainingStdio(io.stdin, io.stdout);
    // One instance per connection (plus one for the probe of a client that then says initialize).
    const instances: McpServer[] = [];
    const serving = serveStdio(
      () => {
        const server = createKnowledgeServer(service);
        instances.push(server);
        return server;
      },
      { transport: stdio.transport, onerror: (error) => say(`mcpterm serve: ${error.message}`) },
    );
    finished = new Promise<void>((resolve) => {
      void stdio.closed.then(resolve);
      io.stdin.once("end", resolve);
      io.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    live = () => instances.filter((server) => server.isConnected());
    // On a 2026 connection the SDK turns this into an update on the client's subscription.
    tellListChanged = () => {
      for (const server of live()) server.server.sendResourceListChanged().catch(() => undefined);
    };
    stop = async () => {
      await stdio.idle();
      await serving.close();
    };
  } else {
    const serving = await serveHttp({
      host: args.host,
      port: args.http,
      token,
      newServer: () => createKnowledgeServer(service),
    });
    const guard = token === undefined ? "no token" : `bearer token from $${args.tokenEnv ?? ""}`;
    say(`mcpterm serve: listening on ${serving.url} (${guard})`);
    // Started in the background with stdin closed is normal here: only a signal stops it.
    finished = new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      io.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    live = () => serving.servers();
    tellListChanged = () => serving.resourcesChanged();
    stop = () => serving.close();
  }

  const watching = watchFolder(
    kb.dir,
    async () => {
      const { report: changes, changed } = await service.refresh();
      if (!changed) return;
      say(`mcpterm serve: ${describeChanges(changes)}`);
      tellListChanged();
      log("info", describeChanges(changes));
    },
    warn,
  );

  await finished;
  await watching.close();
  await stop();
  return ExitCode.ok;
}

function describeChanges(report: RefreshReport): string {
  return (
    `re-indexed the knowledge base: ${report.added.length} added, ${report.updated.length} updated, ` +
    `${report.removed.length} removed (${report.durationMs} ms)`
  );
}

/**
 * The bearer token comes from the variable `--token-env` names, never from the command line,
 * where `ps` would show it to every user of the machine.
 */
function bearerToken(args: ServeArgs, env: NodeJS.ProcessEnv): string | undefined {
  if (args.http === undefined) {
    const given = [args.hostGiven ? "--host" : "", args.tokenEnv !== undefined ? "--token-env" : ""].filter(
      Boolean,
    );
    if (given.length > 0) throw new UsageError(`${given.join(" and ")} only apply with --http <port>.`);
    return undefined;
  }
  let token: string | undefined;
  if (args.tokenEnv !== undefined) {
    token = env[args.tokenEnv];
    if (token === undefined || token.trim() === "") {
      throw new UsageError(
        `--token-env names ${args.tokenEnv}, which is not set or empty; export the token in it first (e.g. ${args.tokenEnv}=$(openssl rand -hex 32)).`,
      );
    }
    if (/\s/.test(token)) {
      throw new UsageError(
        `The token in ${args.tokenEnv} holds whitespace, which a client's Authorization header would not carry as given; export it without spaces or newlines.`,
      );
    }
  }
  if (token === undefined && !isLoopbackHost(args.host)) {
    throw new UsageError(
      `--host ${args.host} lets other machines reach the knowledge base; give it a bearer token with --token-env <VAR>.`,
    );
  }
  return token;
}
