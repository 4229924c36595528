import type { AgentTool } from "../agent/tool-host.js";
import type { CommandContext, CommandResult, SlashCommand } from "./command-types.js";
import { listedToolName } from "../policy/tool-withhold.js";
import { lintSummary, toolInventory } from "./tool-inventory.js";
import { offerColumn, pinCommand, selectionNote, shownInList } from "./tool-selection-rows.js";

export const toolsCommand: SlashCommand = {
  name: "tools",
  usage: "[server] [tool]",
  description:
    "servers with status, tools with tier and reason (and, with many tools, which the last request offered and why); a tool's input schema; /tools hide|show <server>[/<tool>] offers fewer or more to the model this session, /tools pin|unpin <server>[/<tool>] offers them in every request",
  run: (context, args) => Promise.resolve(toolsCommandResult(context, args)),
  complete: (args, source) => {
    if (args.length === 0) return [...source.servers, "hide", "show", "pin", "unpin"];
    if (isVerb(args[0]) && args.length === 1 && !source.servers.includes(args[0])) return source.servers;
    if (args.length === 1)
      return source.tools.filter((tool) => tool.server === args[0]).map((tool) => tool.name);
    return [];
  },
};

const VERBS = ["hide", "show", "pin", "unpin"] as const;

function isVerb(word: string | undefined): word is (typeof VERBS)[number] {
  return (VERBS as readonly string[]).includes(word ?? "");
}

/** `hide` and `show` narrow the offer, `pin` and `unpin` fix it, unless a server is named so (then it is listed, as before). */
function toolsCommandResult(context: CommandContext, args: string[]): CommandResult {
  const [first, target] = args;
  const verb = isVerb(first) ? first : undefined;
  const serverNamed = context.manager.servers().some((server) => server.name === first);
  if ((verb === "pin" || verb === "unpin") && !serverNamed && context.toolSearch) {
    if (target === undefined) return { kind: "error", message: `Usage: /tools ${verb} <server>[/<tool>]` };
    const result = pinCommand(context.toolSearch, context.tools(), verb, target);
    return result.ok ? { kind: "text", text: result.text } : { kind: "error", message: result.text };
  }
  if ((verb === "hide" || verb === "show") && !serverNamed && context.narrowing) {
    if (target === undefined) return { kind: "error", message: `Usage: /tools ${verb} <server>[/<tool>]` };
    const slash = target.indexOf("/");
    const server = slash < 0 ? target : target.slice(0, slash);
    const tool = slash < 0 ? undefined : target.slice(slash + 1);
    const result = context.narrowing[verb](server, tool === "" ? undefined : tool);
    return result.ok ? { kind: "text", text: result.text } : { kind: "error", message: result.text };
  }
  return listTools(context, args[0], args[1]);
}

function listTools(
  context: CommandContext,
  server: string | undefined,
  tool: string | undefined,
): CommandResult {
  const search = context.toolSearch;
  const tools = context.tools().filter((entry) => shownInList(search, entry));
  const inventory = toolInventory(context.manager, tools);
  const hosts = [
    ...inventory.servers.map((entry) => ({
      name: entry.summary.name,
      status: entry.summary.status,
      why: entry.summary.error ?? (entry.summary.status === "connected" ? "no tools" : ""),
      tools: entry.tools,
    })),
    ...inventory.builtIn.map((entry) => ({
      name: entry.host,
      status: "built-in",
      why: "",
      tools: entry.tools,
    })),
  ];
  if (server !== undefined && !hosts.some((host) => host.name === server)) {
    const known = hosts.map((host) => host.name).join(", ") || "none";
    return { kind: "error", message: `There is no server named "${server}" (servers: ${known}).` };
  }
  if (server !== undefined && tool !== undefined) return describeTool(tools, server, tool);

  const selection = search?.lastSelection();
  const selecting = selection?.on === true ? selection : undefined;
  const rows: string[][] = [];
  for (const host of hosts.filter((candidate) => server === undefined || candidate.name === server)) {
    if (host.tools.length === 0) {
      rows.push([host.name, host.status, "", "", host.why, ...(selecting ? [""] : [])]);
      continue;
    }
    for (const entry of host.tools) {
      const notes = entry.withheld?.startsWith("hidden") ? [...entry.notes, entry.withheld] : entry.notes;
      const reason = notes.length > 0 ? `${entry.tierReason} · ⚠ ${notes.join("; ")}` : entry.tierReason;
      const offer = selecting ? [entry.withheld === undefined ? offerColumn(selecting, entry) : "never"] : [];
      rows.push([host.name, host.status, listedToolName(entry.name), entry.tier, reason, ...offer]);
    }
  }
  const lint = inventory.lint.filter((finding) => server === undefined || finding.server === server);
  const lintNote = lint.length === 0 ? undefined : `${lintSummary(lint)}: mcpterm tools lists each finding.`;
  const note = search ? selectionNote(search) : undefined;
  return {
    kind: "table",
    title: server === undefined ? "Tools" : `Tools of ${server}`,
    columns: ["server", "status", "tool", "tier", "reason", ...(selecting ? ["last request"] : [])],
    rows,
    note: [note, lintNote, "/tools <server> <tool> shows a tool's input schema."]
      .filter((line) => line)
      .join("\n"),
  };
}

function describeTool(tools: readonly AgentTool[], server: string, name: string): CommandResult {
  const tool = tools.find((candidate) => candidate.server === server && candidate.name === name);
  if (!tool) {
    const names = tools
      .filter((candidate) => candidate.server === server)
      .map((candidate) => listedToolName(candidate.name));
    return {
      kind: "error",
      message: `Server "${server}" has no tool "${name}" right now (tools: ${names.join(", ") || "none"}).`,
    };
  }
  return {
    kind: "text",
    text: [
      `${tool.server}/${listedToolName(tool.name)} · ${tool.tier} (${tool.tierReason})`,
      ...tool.notes.map((note) => `⚠ ${note}`),
      tool.modelDescription,
      "",
      // As the model is sent them, like the description above: the notes say what was changed.
      "Input schema:",
      JSON.stringify(tool.modelInputSchema, null, 2),
    ].join("\n"),
  };
}
