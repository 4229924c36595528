import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CliArgs } from "../args.js";
import { ExitCode } from "../core/errors.js";
import { SecretRedactor } from "../core/policy/redact-secrets.js";
import { createKnowledgeServer } from "../servers/knowledge/knowledge-server.js";
import type { CliIo } from "../common/cli-io.js";
import { loadProjectConfig } from "../common/load-project-config.js";
import { knowledgeDir, openFreshKnowledge } from "../core/kb/index.js";

type ServeArgs = Extract<CliArgs, { command: "serve" }>;

/**
 * `mcpterm serve`: the knowledge base as an MCP server on stdio. stdout belongs to the protocol,
 * so everything else goes to stderr. Runs until the client closes stdin or the process is told
 * to stop.
 */
export async function runServeCommand(args: ServeArgs, io: CliIo): Promise<ExitCode> {
  const config = await loadProjectConfig(args.common, io);
  const { kb, report } = await openFreshKnowledge(knowledgeDir(args.common.kbDir, config, io.cwd), io.cwd);
  const stats = kb.stats();
  io.stderr.write(`mcpterm serve: ${stats.files} files, ${stats.chunks} passages from ${kb.dir}\n`);
  for (const skipped of report.skipped) io.stderr.write(`skipped ${skipped.path}: ${skipped.reason}\n`);

  const redactor = SecretRedactor.forSession([], io.env);
  const server = createKnowledgeServer(kb, redactor.redactText);
  const transport = new StdioServerTransport(io.stdin, io.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    io.stdin.once("end", resolve);
    io.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await server.connect(transport);
  await closed;
  await server.close();
  return ExitCode.ok;
}
