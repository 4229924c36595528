import type { CliArgs } from "../args/index.js";
import type { CliIo } from "../common/cli-io.js";
import { catalogGap, catalogsSettled, promptLines, resourceLines } from "../core/context/catalog-view.js";
import { ExitCode } from "../core/errors.js";
import type { ServerSnapshot } from "../core/mcp/types.js";
import { displayPretty } from "../core/policy/redacted-json.js";
import { sanitizeForTerminal, sanitizeOneLine } from "../core/policy/sanitize-terminal.js";
import { firstLine } from "../core/text/index.js";
import { runPromptRender } from "./prompt-render.js";
import { withServers } from "./with-one-server.js";

type CatalogArgs = Extract<CliArgs, { command: "resources" | "prompts" }>;

/**
 * `mcpterm resources` and `mcpterm prompts`: connect like `mcpterm tools`, wait for each
 * server's first listing, then list its resources and templates, or its prompts with their
 * arguments. Text is redacted and cleaned for the terminal; `--json` gives the whole definitions,
 * redacted. Exit 4 when any server failed, or its listing of what was asked for did.
 */
export async function runCatalogCommand(args: CatalogArgs, io: CliIo): Promise<ExitCode> {
  if (args.command === "prompts" && args.prompt !== undefined && args.server !== undefined)
    return runPromptRender({ ...args, server: args.server, prompt: args.prompt }, io);
  return withServers(args.common, args.server, io, async (manager, redactor) => {
    await catalogsSettled(manager);
    const snapshots = manager.servers();
    if (args.json) {
      const report = { servers: snapshots.map((server) => jsonReport(server, args.command)) };
      // As tools --json: keys and strings also cleaned of controls, invisible characters written out.
      io.stdout.write(`${displayPretty(report, redactor.redactText)}\n`);
    } else if (snapshots.length === 0) {
      io.stdout.write("No MCP servers are configured (add them to mcp.config.json under mcpServers).\n");
    } else {
      const render = args.command === "resources" ? resourcesText : promptsText;
      const lines = snapshots.flatMap((server) => render(server, redactor.redactText));
      if (args.command === "prompts" && snapshots.some((server) => server.catalog.prompts.length > 0))
        lines.push("In the assistant, a prompt runs as its command: /<server>:<prompt> [arguments].");
      io.stdout.write(`${sanitizeForTerminal(lines.join("\n"))}\n`);
    }
    // A listing the server broke fails the run as a server that failed does: a script or a
    // server's CI sees what every client of it would refuse.
    const failed = snapshots.some(
      (server) => server.status === "failed" || server.catalog.failed.includes(args.command),
    );
    return failed ? ExitCode.serverUnavailable : ExitCode.ok;
  });
}

function jsonReport(server: ServerSnapshot, part: CatalogArgs["command"]): object {
  const { name, status, error, catalog } = server;
  const offered = server.status === "connected" ? server.capabilities?.[part] !== undefined : undefined;
  const lists =
    part === "resources"
      ? { resources: catalog.resources, resourceTemplates: catalog.resourceTemplates }
      : { prompts: catalog.prompts };
  return { name, status, error, offered, ...lists, problems: catalog.problems };
}

const DESCRIPTION_WIDTH = 100;

function resourcesText(server: ServerSnapshot, redact: (text: string) => string): string[] {
  const lines = resourceLines(server, redact);
  const { resources, resourceTemplates } = server.catalog;
  const gap = catalogGap(server, "resources");
  const head =
    lines.length === 0
      ? `${server.name}: ${gap ?? "no resources"}`
      : `${server.name}: ${count(resources.length, "resource")}, ${count(resourceTemplates.length, "template")}`;
  return [
    head,
    ...lines.flatMap((line) => [
      `  ${line.kind === "template" ? "template " : ""}${sanitizeOneLine(line.uri)}  ${sanitizeOneLine(line.name)}${line.mimeType ? `  ${sanitizeOneLine(line.mimeType)}` : ""}`,
      ...described(line.description),
    ]),
    ...problems(server, gap),
  ];
}

function promptsText(server: ServerSnapshot, redact: (text: string) => string): string[] {
  const lines = promptLines(server, redact);
  const gap = catalogGap(server, "prompts");
  const head =
    lines.length === 0
      ? `${server.name}: ${gap ?? "no prompts"}`
      : `${server.name}: ${count(lines.length, "prompt")}`;
  return [
    head,
    ...lines.flatMap((line) => [
      `  ${sanitizeOneLine(`${line.command}${line.usage ? ` ${line.usage}` : ""}`)}`,
      ...described([line.title, line.description].filter((part) => part !== "").join(" — ")),
      ...line.arguments.map(
        (argument) =>
          `      ${argument.name}${argument.required ? " (required)" : ""}${argument.description ? `: ${firstLine(argument.description, DESCRIPTION_WIDTH)}` : ""}`,
      ),
    ]),
    ...problems(server, gap),
  ];
}

function described(description: string): string[] {
  return description.trim() === "" ? [] : [`      ${firstLine(description, DESCRIPTION_WIDTH)}`];
}

/** Listing failures not already said in the server's line. */
function problems(server: ServerSnapshot, said: string | undefined): string[] {
  return server.catalog.problems.filter((problem) => problem !== said).map((problem) => `  ! ${problem}`);
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
