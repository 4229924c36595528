import type { AgentTool } from "../agent/tool-host.js";
import type { CommandContext, CommandResult, SlashCommand } from "./command-types.js";

export const toolsCommand: SlashCommand = {
  name: "tools",
  usage: "[server] [tool]",
  description: "servers with status, tools with tier and reason; a tool's input schema",
  run: (context, args) => Promise.resolve(listTools(context, args[0], args[1])),
  complete: (args, source) => {
    if (args.length === 0) return source.servers;
    if (args.length === 1)
      return source.tools.filter((tool) => tool.server === args[0]).map((tool) => tool.name);
    return [];
  },
};

function listTools(
  context: CommandContext,
  server: string | undefined,
  tool: string | undefined,
): CommandResult {
  const tools = context.tools();
  const known = knownServers(context, tools);
  if (server !== undefined && !known.includes(server)) {
    return {
      kind: "error",
      message: `There is no server named "${server}" (servers: ${known.join(", ") || "none"}).`,
    };
  }
  if (server !== undefined && tool !== undefined) return describeTool(tools, server, tool);

  const statuses = new Map(context.manager.servers().map((snapshot) => [snapshot.name, snapshot]));
  const rows: string[][] = [];
  for (const name of known.filter((candidate) => server === undefined || candidate === server)) {
    const snapshot = statuses.get(name);
    const status = snapshot ? snapshot.status : "built-in";
    const own = tools.filter((candidate) => candidate.server === name);
    if (own.length === 0) {
      const why = snapshot?.error ?? (snapshot?.status === "connected" ? "no tools" : "");
      rows.push([name, status, "", "", why]);
      continue;
    }
    for (const entry of own) {
      const reason =
        entry.notes.length > 0 ? `${entry.tierReason} · ⚠ ${entry.notes.join("; ")}` : entry.tierReason;
      rows.push([name, status, entry.name, entry.tier, reason]);
    }
  }
  return {
    kind: "table",
    title: server === undefined ? "Tools" : `Tools of ${server}`,
    columns: ["server", "status", "tool", "tier", "reason"],
    rows,
    note: "/tools <server> <tool> shows a tool's input schema.",
  };
}

function describeTool(tools: readonly AgentTool[], server: string, name: string): CommandResult {
  const tool = tools.find((candidate) => candidate.server === server && candidate.name === name);
  if (!tool) {
    const names = tools.filter((candidate) => candidate.server === server).map((candidate) => candidate.name);
    return {
      kind: "error",
      message: `Server "${server}" has no tool "${name}" right now (tools: ${names.join(", ") || "none"}).`,
    };
  }
  return {
    kind: "text",
    text: [
      `${tool.server}/${tool.name} · ${tool.tier} (${tool.tierReason})`,
      ...tool.notes.map((note) => `⚠ ${note}`),
      tool.modelDescription,
      "",
      // As the model is sent them, like the description above: the notes say what was changed.
      "Input schema:",
      JSON.stringify(tool.modelInputSchema, null, 2),
    ].join("\n"),
  };
}

/** Configured servers in config order, then hosts that are not MCP servers (the built-in tools). */
function knownServers(context: CommandContext, tools: readonly AgentTool[]): string[] {
  const names = context.manager.servers().map((snapshot) => snapshot.name);
  for (const tool of tools) if (!names.includes(tool.server)) names.push(tool.server);
  return names;
}
