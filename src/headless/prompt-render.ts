import type { GetPromptResult, PromptMessage } from "@modelcontextprotocol/client";
import type { CliArgs } from "../args/index.js";
import type { CliIo } from "../common/cli-io.js";
import { bindPromptArguments, type ArgumentWord } from "../core/context/prompt-arguments.js";
import { ExitCode, UsageError } from "../core/errors.js";
import { fullyRedactedPretty } from "../core/policy/redacted-json.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { base64Bytes, formatBytes } from "../core/text/index.js";
import { explainedFailure, stderrMarkNow } from "./request-failure.js";
import { withOneServer } from "./with-one-server.js";

type PromptsArgs = Extract<CliArgs, { command: "prompts" }>;

/**
 * `mcpterm prompts <server> <prompt> [key=value…]`: renders one of the server's prompts
 * (prompts/get) and prints its messages, each under its role, as the model would be sent them;
 * `--json` prints the server's GetPromptResult whole. Redacted and cleaned for the terminal.
 */
export async function runPromptRender(
  args: PromptsArgs & { server: string; prompt: string },
  io: CliIo,
): Promise<ExitCode> {
  return withOneServer(args.common, args.server, io, async (_manager, connection, redactor) => {
    await connection.catalogSettled();
    const prompts = connection.snapshot().catalog.prompts;
    const prompt = prompts.find((candidate) => candidate.name === args.prompt);
    if (!prompt) {
      const names = prompts.map((candidate) => candidate.name).join(", ") || "none";
      throw new UsageError(`Server "${args.server}" has no prompt "${args.prompt}" (its prompts: ${names}).`);
    }
    // As the person typed it: a server after -- has no name of theirs to repeat.
    const command = `mcpterm prompts ${args.common.target ? "" : `${args.server} `}${args.prompt}`;
    const bound = bindPromptArguments(command, prompt, args.arguments.map(argumentWord));
    if (!bound.ok) throw new UsageError(bound.reason);
    const stderrMark = await stderrMarkNow(connection);
    const result = await connection
      .getPrompt(args.prompt, bound.args, { signal: io.signal })
      .catch(async (error: unknown) => {
        throw (await explainedFailure(error, connection, stderrMark, redactor)).failure;
      });
    // The full rule set, as for a tool's result: a prompt's messages are the server's content.
    io.stdout.write(
      args.json
        ? `${await fullyRedactedPretty({ server: args.server, prompt: args.prompt, arguments: bound.args, result }, redactor.forRecords)}\n`
        : sanitizeForTerminal(
            (await redactor.redact(renderMessages(`${args.server}/${args.prompt}`, result))).text,
          ),
    );
    return ExitCode.ok;
  });
}

/** `key=value` names an argument; any other word is the next one the prompt declares. */
function argumentWord(word: string): ArgumentWord {
  const named = /^([A-Za-z_][\w.-]*)=([\s\S]*)$/.exec(word);
  return named ? { key: named[1], value: named[2] ?? "" } : { key: undefined, value: word };
}

/** The messages as text: a heading with the description, then each message under `── role ──`. */
export function renderMessages(label: string, result: GetPromptResult): string {
  const count = `${result.messages.length} message${result.messages.length === 1 ? "" : "s"}`;
  const lines = [`${label}${result.description ? `: ${result.description}` : ""} (${count})`];
  for (const message of result.messages) lines.push(`── ${message.role} ──`, messageText(message));
  return `${lines.join("\n")}\n`;
}

function messageText(message: PromptMessage): string {
  const { content } = message;
  switch (content.type) {
    case "text":
      return content.text;
    case "image":
    case "audio":
      return `[${content.type}: ${content.mimeType}, ${formatBytes(base64Bytes(content.data))}]`;
    case "resource_link":
      return `[resource link: ${content.name} ${content.uri}]`;
    case "resource": {
      const { resource } = content;
      const head = `[resource ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ""}]`;
      return "text" in resource
        ? `${head}\n${resource.text}`
        : `${head} (${formatBytes(base64Bytes(resource.blob))} of binary)`;
    }
  }
}
