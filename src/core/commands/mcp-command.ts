import { MAX_SERVER_INSTRUCTIONS } from "../agent/system-prompt.js";
import { statusPhrase } from "../mcp/types.js";
import { resourceCount } from "../context/catalog-view.js";
import { errorMessage } from "../errors.js";
import { protocolFacts, protocolLabel } from "../mcp/protocol-facts.js";
import { isLogLevel, LOG_LEVELS } from "../mcp/server-log.js";
import type { ServerConnection } from "../mcp/server-connection.js";
import type { ServerSnapshot } from "../mcp/types.js";
import { signInMode, type SignInMode } from "../oauth/sign-in-mode.js";
import { sanitizeForTerminal, sanitizeOneLine } from "../policy/sanitize-terminal.js";
import { pluralize } from "../text/index.js";
import type { CommandContext, CommandResult, SlashCommand } from "./command-types.js";
import { describeProtocol } from "../mcp/protocol-era.js";

const LOG_LINES = 40;
const SUBCOMMANDS = ["status", "info", "logs", "loglevel", "restart", "login", "logout"] as const;
type Subcommand = Exclude<(typeof SUBCOMMANDS)[number], "status">;

function isSubcommand(word: string): word is Subcommand {
  return word !== "status" && (SUBCOMMANDS as readonly string[]).includes(word);
}

export const mcpCommand: SlashCommand = {
  name: "mcp",
  usage:
    "[info <server> | logs <server> | loglevel <server> <level> | restart <server> | login <server> | logout <server>]",
  description:
    "server status; a server's instructions and capabilities; its stderr, stray stdout and log messages; its log level; restart it; sign in to it (OAuth) or out",
  complete: (args, source) => {
    if (args.length === 0) return SUBCOMMANDS;
    if (args.length === 1 && isSubcommand(args[0] ?? "")) return source.servers;
    if (args.length === 2 && args[0] === "loglevel") return LOG_LEVELS;
    return [];
  },
  run: async (context, args) => {
    const [sub, name, level] = args;
    // What is listed so far: a server slow to list its resources must not hold up its status.
    if (sub === undefined || sub === "status")
      return status(context.manager.servers(), context.serversNotStarted);
    if (!isSubcommand(sub)) {
      return {
        kind: "error",
        message: `Unknown /mcp subcommand "${sub}"; use /mcp, /mcp info|logs|restart|login|logout <server> or /mcp loglevel <server> <level>.`,
      };
    }
    if (name === undefined)
      return { kind: "error", message: `Usage: /mcp ${sub} <server>${sub === "loglevel" ? " <level>" : ""}` };
    const connection = context.manager.connection(name);
    if (!connection) {
      const known = context.manager.servers().map((server) => server.name);
      return {
        kind: "error",
        message:
          known.length === 0 && context.serversNotStarted
            ? `There is no server named "${name}" running. ${context.serversNotStarted}`
            : `There is no server named "${name}" (servers: ${known.join(", ") || "none"}).`,
      };
    }
    switch (sub) {
      case "logs": {
        const { stderr, stdout } = connection.linesSinceStart();
        return logs(name, stderr, stdout, connection.logMessages());
      }
      case "info":
        return info(connection.snapshot());
      case "loglevel":
        return setLevel(connection, level);
      case "restart":
        return restart(context, connection);
      case "login":
        return login(context, connection);
      case "logout":
        return logout(connection);
    }
  },
};

async function setLevel(connection: ServerConnection, typed: string | undefined): Promise<CommandResult> {
  // DEBUG and debug alike: the levels are words, not case-sensitive names.
  const level = typed?.toLowerCase();
  if (level === undefined || !isLogLevel(level)) {
    return {
      kind: "error",
      message: `Usage: /mcp loglevel ${connection.name} <level>, where level is one of ${LOG_LEVELS.join(", ")}.`,
    };
  }
  try {
    await connection.setLogLevel(level);
  } catch (error) {
    return {
      kind: "error",
      message: `Setting the log level of "${connection.name}" failed: ${errorMessage(error)}`,
    };
  }
  return {
    kind: "text",
    text: `Asked "${connection.name}" to send log messages from ${level} up; /mcp logs ${connection.name} shows them.`,
  };
}

async function restart(context: CommandContext, connection: ServerConnection): Promise<CommandResult> {
  const { name } = connection;
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
    message: `Restarted "${name}" but it ${statusPhrase(after.status)}: ${after.error ?? "no reason given"}`,
  };
}

/** Connects the server again, signing in (a browser page, on a yes) if it asks for it. */
async function login(context: CommandContext, connection: ServerConnection): Promise<CommandResult> {
  if (!connection.signsIn) return notSigningIn(connection);
  const result = await restart(context, connection);
  return result.kind === "text"
    ? {
        kind: "text",
        text: `Signed in to "${connection.name}": connected, ${connection.snapshot().tools.length} tools.`,
      }
    : result;
}

async function logout(connection: ServerConnection): Promise<CommandResult> {
  if (!(await connection.signOut())) return notSigningIn(connection);
  return {
    kind: "text",
    text: `Signed out of "${connection.name}": its tokens and registered client are forgotten, and it is disconnected.`,
  };
}

/** Why a server is not signed in to, from its entry: mcpterm knows which of the reasons it is. */
function notSigningIn(connection: ServerConnection): CommandResult {
  const name = connection.name;
  const why: Record<SignInMode, string> = {
    local: `Server "${name}" is a local (stdio) server: there is nothing to sign in to; what it needs goes in its "env" in mcp.config.json.`,
    off: `Server "${name}" has "oauth": false in its entry, so mcpterm does not sign in to it; remove that to let it.`,
    "own header": `Server "${name}" sends its own Authorization header (mcpServers.${name}.headers), so mcpterm does not sign in to it.`,
    browser: `Signing in to server "${name}" is not available here; use mcpterm auth login ${name}.`,
    "service account": `Signing in to server "${name}" is not available here; use mcpterm auth login ${name}.`,
  };
  return { kind: "error", message: why[signInMode(connection.config)] };
}

/** What a server said about itself in initialize: who it is, what it offers, and its instructions. */
function info(server: ServerSnapshot): CommandResult {
  const where = server.pid !== undefined ? `pid ${server.pid}` : server.url;
  const lines = [[server.name, server.status, server.transport, where].filter((part) => part).join(" · ")];
  if (server.error) lines.push(`last error: ${server.error}`);
  const protocol = protocolLabel(protocolFacts(server));
  if (server.serverInfo || protocol !== undefined) {
    const who = server.serverInfo ? `${server.serverInfo.name} ${server.serverInfo.version}` : "unnamed";
    lines.push(`server: ${who}${protocol === undefined ? "" : ` · ${protocol}`}`);
  }
  if (server.status === "connected") {
    lines.push(`offers: ${capabilityList(server.capabilities) || "nothing it declared"}`);
    lines.push(
      `tools ${server.tools.length} · resources ${resourceCount(server)} · prompts ${server.catalog.prompts.length}`,
    );
    for (const problem of server.catalog.problems) lines.push(`! ${problem}`);
    // As `mcpterm tools` names them: a tool the server lists that the model is never offered.
    for (const refused of server.refusedTools)
      lines.push(sanitizeOneLine(`! tool "${refused.name}" not listed: ${refused.reason}`));
  }
  const instructions = sanitizeForTerminal(server.instructions ?? "").trim();
  if (instructions === "") {
    lines.push("instructions: none");
  } else {
    const cut =
      instructions.length > MAX_SERVER_INSTRUCTIONS
        ? ` (${instructions.length} characters; the model is given the first ${MAX_SERVER_INSTRUCTIONS})`
        : "";
    lines.push(`instructions, from the server and given to the model as its own${cut}:`);
    lines.push(...instructions.split("\n").map((line) => `  ${line}`));
  }
  return { kind: "text", text: lines.join("\n") };
}

/** `tools (listChanged), resources (subscribe, listChanged), logging`: the capabilities a server declared. */
function capabilityList(capabilities: ServerSnapshot["capabilities"]): string {
  if (!capabilities) return "";
  return Object.entries(capabilities)
    .map(([name, value]) => {
      const flags = Object.entries(value as Record<string, unknown>)
        .filter(([, flag]) => flag === true)
        .map(([flag]) => flag);
      return flags.length > 0 ? `${name} (${flags.join(", ")})` : name;
    })
    .join(", ");
}

function status(servers: readonly ServerSnapshot[], notStarted: string | undefined): CommandResult {
  if (servers.length === 0) {
    return {
      kind: "text",
      text: notStarted ?? "No MCP servers are configured; add some under mcpServers in mcp.config.json.",
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
      "resources",
      "prompts",
      "init",
      "last error",
    ],
    rows: servers.map((server) => [
      server.name,
      server.status,
      server.transport,
      server.pid !== undefined ? `pid ${server.pid}` : (server.url ?? ""),
      server.protocolVersion ? describeProtocol(server) : "",
      server.serverInfo ? `${server.serverInfo.name} ${server.serverInfo.version}` : "",
      String(server.tools.length),
      resourceCount(server),
      server.status === "connected" ? String(server.catalog.prompts.length) : "",
      server.initializeMs === undefined ? "" : `${server.initializeMs} ms`,
      server.error ?? "",
    ]),
    note: "/mcp info <server> · /mcp logs <server> · /mcp loglevel <server> <level> · /mcp restart <server>",
  };
}

function logs(name: string, stderr: string[], stdout: string[], notifications: string[]): CommandResult {
  const section = (title: string, lines: string[]): string[] => {
    const shown = lines.slice(-LOG_LINES);
    const hidden = lines.length - shown.length;
    return [
      `${title} (${lines.length === 0 ? "none" : pluralize(lines.length, "line")}${hidden > 0 ? `, last ${shown.length}` : ""})`,
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
