import type { Argv } from "yargs";
import type { CommandContext } from "../shared/command-context.js";
import type { GlobalOptions } from "../shared/global-options.js";
import { commonArgs, positiveWholeNumber } from "../shared/option-values.js";
import type { CliArgs } from "../shared/cli-args.js";

/** `mcpterm kb <action> [query..]`: the knowledge base indexed, searched, added to or pruned. */
export function kbCommand(
  parser: Argv<GlobalOptions>,
  { choose, afterDash }: CommandContext,
): Argv<GlobalOptions> {
  return parser.command(
    "kb <action> [query..]",
    "the knowledge base: kb index | kb search <query> [--k n] | kb stats | kb add <path|url> | kb remove <path>",
    (command) =>
      command
        .positional("action", {
          choices: ["index", "search", "stats", "add", "remove"] as const,
          demandOption: true,
        })
        .positional("query", {
          type: "string",
          array: true,
          describe: "what to search for, add or remove",
        })
        .option("k", { type: "number", default: 5, describe: "how many passages to return" })
        .option("as", { type: "string", describe: "kb add: the name to give the document in the folder" })
        .option("force", {
          type: "boolean",
          default: false,
          describe: "kb add: replace a document of that name",
        })
        .option("yes", {
          type: "boolean",
          default: false,
          describe: "kb add <url>: fetch without asking",
        })
        .option("json", {
          type: "boolean",
          default: false,
          describe:
            "the answer as JSON: search the passages (path, lines, heading, score, text), add/remove the document and its report, index what changed, stats the figures",
        })
        .check((parsed) => positiveWholeNumber("--k", parsed.k)),
    (parsed) => choose(kbArgs(parsed, afterDash)),
  );
}

/** The kb command's words as one typed action; --as, --force and --yes belong to `kb add` only. */
function kbArgs(
  parsed: {
    action: "index" | "search" | "stats" | "add" | "remove";
    query?: string[] | undefined;
    k: number;
    as?: string | undefined;
    force: boolean;
    yes: boolean;
    json: boolean;
    config?: string | undefined;
    kb?: unknown;
    debug?: boolean | undefined;
  },
  afterDash: readonly string[],
): CliArgs {
  const common = commonArgs(parsed);
  const { action, json } = parsed;
  // After `--`, words are the query or the path even when they start with `-` (`-fno-rtti`),
  // exactly as typed (`0x10` is no number there).
  const words = [...(parsed.query ?? []), ...afterDash];
  if (action !== "add" && (parsed.as !== undefined || parsed.force || parsed.yes))
    throw new Error("--as, --force and --yes only apply to mcpterm kb add");
  if (action === "add" || action === "remove") {
    // One path or URL, exactly as typed: a name with spaces is quoted, never joined from words.
    const [target, ...extra] = words;
    const what = action === "add" ? "<path|url>" : "<path>";
    if (target === undefined || extra.length > 0)
      throw new Error(`mcpterm kb ${action} takes one ${what} (quote a name with spaces)`);
    if (action === "remove") return { command: "kb", common, action, path: target, json };
    return {
      command: "kb",
      common,
      action,
      source: target,
      as: parsed.as,
      force: parsed.force,
      yes: parsed.yes,
      json,
    };
  }
  if (action !== "search" && words.length > 0)
    throw new Error(`mcpterm kb ${action} takes no words; did you mean mcpterm kb search?`);
  return {
    command: "kb",
    common,
    action,
    query: words.length > 0 ? words.join(" ") : undefined,
    k: parsed.k,
    json,
  };
}
