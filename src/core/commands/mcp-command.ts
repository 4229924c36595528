import { errorMessage } from "../errors.js";
import type { ServerSnapshot } from "../mcp/types.js";
import type { CommandResult, SlashCommand } from "./command-types.js";

const LOG_LINES = 40;

export const mcpCommand: SlashCommand = {
  name: "mcp",
  usage: "[restart <server> | logs <server>]",
  description: "server status; restart a server; show its stderr, stray stdout and log messages",
  complete: (args, source) => {
    if (args.length === 0) return ["status", "restart", "logs"];
    if (args.length === 1 && (args[0] === "restart" || args[0] === "logs")) return source.servers;
    return [];
  },
  run: async (context, args) => {
    const [sub, name] = args;
    if (sub === undefined || sub === "status") return status(context.manager.servers());
    if (sub !== "restart" && sub !== "logs") {
      return {
        kind: "error",
        message: `Unknown /mcp subcommand "${sub}"; use /mcp, /mcp restart <server> or /mcp logs <server>.`,
      };
    }
    if (name === undefined) return { kind: "error", message: `Usage: /mcp ${sub} <server>` };
    const connection = context.manager.connection(name);
    if (!connection) {
      const known = context.manager.servers().map((server) => server.name);
      return {
        kind: "error",
        message: `There is no server named "${name}" (servers: ${known.join(", ") || "none"}).`,
      };
    }
    if (sub === "logs") {
      return logs(name, connection.stderrLines(), connection.stdoutNoise(), connection.logMessages());
    }
    try {
      await context.manager.restart(name);
    } catch (error) {
      return { kind: "error", message: `Restarting "${name}" failed: ${errorMessage(error)}` };
    }
    const after = connection.snapshot();
    if (after.status === "connected") {
      return { kind: "text", text: `Restarted "${name}": connected, ${after.tools.length} tools.` };
    }
    return {
      kind: "error",
      message: `Restarted "${name}" but it is ${after.status}: ${after.error ?? "no reason given"}`,
    };
  },
};

function status(servers: readonly ServerSnapshot[]): CommandResult {
  if (servers.length === 0) {
    return {
      kind: "text",
      text: "No MCP servers are configured; add some under mcpServers in mcp.config.json.",
    };
  }
  return {
    kind: "table",
    title: "MCP servers",
    columns: [
      "server",
      "state",
      "transport",
      "pid/url",
      "protocol",
      "server info",
      "tools",
      "init",
      "last error",
    ],
    rows: servers.map((server) => [
      server.name,
      server.status,
      server.transport,
      server.pid !== undefined ? `pid ${server.pid}` : (server.url ?? ""),
      server.protocolVersion ?? "",
      server.serverInfo ? `${server.serverInfo.name} ${server.serverInfo.version}` : "",
      String(server.tools.length),
      server.initializeMs === undefined ? "" : `${server.initializeMs} ms`,
      server.error ?? "",
    ]),
    note: "/mcp restart <server> · /mcp logs <server>",
  };
}

function logs(name: string, stderr: string[], stdout: string[], notifications: string[]): CommandResult {
  const section = (title: string, lines: string[]): string[] => {
    const shown = lines.slice(-LOG_LINES);
    const hidden = lines.length - shown.length;
    return [
      `${title} (${lines.length === 0 ? "none" : `${lines.length} lines`}${hidden > 0 ? `, last ${shown.length}` : ""})`,
      ...shown.map((line) => `  ${line}`),
    ];
  };
  return {
    kind: "text",
    text: [
      `Logs of "${name}"`,
      ...section("stderr", stderr),
      ...section("stdout lines that were not JSON-RPC", stdout),
      ...section("logging notifications", notifications),
    ].join("\n"),
  };
}
