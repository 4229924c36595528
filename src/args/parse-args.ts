import yargs, { type Argv } from "yargs";
import { isDecimalNumber } from "../core/text/decimal-number.js";
import { UsageError } from "../core/errors.js";
import { authCommand } from "./commands/auth.js";
import { callCommand } from "./commands/call.js";
import { devCommand } from "./commands/dev.js";
import { doctorCommand } from "./commands/doctor.js";
import { interactiveCommand } from "./commands/interactive.js";
import { kbCommand } from "./commands/kb.js";
import { promptsCommand } from "./commands/prompts.js";
import { readCommand } from "./commands/read.js";
import { replayCommand } from "./commands/replay.js";
import { resourcesCommand } from "./commands/resources.js";
import { serveCommand } from "./commands/serve.js";
import { toolsCommand } from "./commands/tools.js";
import { traceCommand } from "./commands/trace.js";
import type { CliArgs } from "./shared/cli-args.js";
import type { CommandContext } from "./shared/command-context.js";
import { withGlobalOptions, type GlobalOptions } from "./shared/global-options.js";
import { typedServer } from "./shared/server-target.js";
import { unknownOptionsSentence } from "./unknown-options.js";

/**
 * Parses the command line into one typed command. Pure: no IO, no exit; `--help` and
 * `--version` come back as text to print, and mistakes as `UsageError`.
 */
export async function parseArgs(argv: readonly string[], version: string): Promise<CliArgs> {
  const joined = joinStdinPrompt(argv);
  // `mcpterm call echo -- node server.js`: what follows `--` is the server's own command line,
  // kept word for word (yargs would read numbers and options in it).
  const dash = joined.indexOf("--");
  const command = commandWord(joined.slice(0, dash === -1 ? joined.length : dash));
  if (dash !== -1 && command !== undefined && LAUNCH_COMMANDS.has(command))
    return parseWords(joined.slice(0, dash), version, joined.slice(dash + 1));
  return parseWords(joined, version, undefined);
}

/** The commands that start servers, and so take a server typed after `--` or as `--url`. */
const LAUNCH_COMMANDS = new Set(["tools", "call", "resources", "prompts", "read", "doctor", "dev", "replay"]);

/** The command's name: the first word that is not an option (nor the value of --config or --kb). */
function commandWord(argv: readonly string[]): string | undefined {
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index] ?? "";
    if (word === "--config" || word === "--kb") index += 1;
    else if (!word.startsWith("-")) return word;
  }
  return undefined;
}

async function parseWords(
  words: readonly string[],
  version: string,
  launchWords: readonly string[] | undefined,
): Promise<CliArgs> {
  let chosen: CliArgs | undefined;
  const parser = buildParser(
    version,
    (args) => {
      chosen = args;
    },
    launchWords,
    words,
  );
  const output = await new Promise<string | { mistake: string; command: unknown }>((resolve, reject) => {
    try {
      void parser.parse(
        [...words],
        {},
        (error: Error | null | undefined, parsed: { _?: unknown[] } | undefined, text: string) => {
          if (error) resolve({ mistake: error.message, command: parsed?._?.[0] });
          else resolve(text);
        },
      );
    } catch (error) {
      // Command handlers throw plain errors for values yargs cannot check by itself.
      reject(new UsageError(`${(error as Error).message} (see mcpterm --help)`));
    }
  });
  if (typeof output !== "string") {
    const command = typeof output.command === "string" ? output.command : undefined;
    const unknown = unknownNames(output.mistake);
    throw new UsageError(
      unknown === undefined
        ? usageSentence(output.mistake, command)
        : unknownOptionsSentence(
            unknown,
            words,
            command,
            {
              command: await helpText(version, command === undefined ? [] : [command]),
              assistant: await helpText(version, []),
            },
            command === "kb" ? KB_DASH_HINT : "",
          ),
    );
  }
  if (output) return { command: "print", text: output };
  if (!chosen) throw new UsageError("Nothing to do (see mcpterm --help).");
  return chosen;
}

/**
 * yargs's own words for a mistake, with where to look: for a command short of its arguments
 * (`mcpterm call`), which command it is and its own --help, which shows what it takes.
 */
function usageSentence(message: string, command: unknown): string {
  const invalid = invalidChoice(message);
  if (invalid) return invalid;
  const short = /^Not enough non-option arguments: got (\d+), need at least (\d+)$/.exec(message);
  if (short && typeof command === "string" && /^[a-z]+$/.test(command)) {
    return `mcpterm ${command} needs more arguments (got ${short[1]}, needs at least ${short[2]}); see mcpterm ${command} --help for what it takes.`;
  }
  return `${message} (see mcpterm --help)`;
}

/** The names yargs' "Unknown argument(s): …" gives, each once (it names --some-flag twice, as typed and in camelCase). */
function unknownNames(message: string): string[] | undefined {
  const unknown = /^Unknown arguments?: (.*)$/.exec(message)?.[1];
  if (unknown === undefined) return undefined;
  const named = unknown.split(", ");
  return named.filter((name) => !(/[A-Z]/.test(name) && named.includes(kebab(name))));
}

/** `kb search -fno-rtti` reads as the options f, n, o… to yargs: the person meant a query. */
const KB_DASH_HINT =
  "; a query or path that starts with - goes after --, as in mcpterm kb search -- -fno-rtti";

/** A command's help text (the assistant's for none), where its options are listed. */
async function helpText(version: string, command: string[]): Promise<string> {
  const parser = buildParser(version, () => undefined, undefined, []);
  return new Promise((resolve) => {
    void parser.parse([...command, "--help"], {}, (_error: unknown, _parsed: unknown, text: string) => {
      resolve(text);
    });
  });
}

/**
 * yargs' two lines for a value outside an option's choices (`Invalid values:\n  Argument: output,
 * Given: "xml", Choices: "text", "json"`), as one sentence naming the flag; a flag given with no
 * value comes as `Given: true`.
 */
function invalidChoice(message: string): string | undefined {
  const found = /^Invalid values:\s*Argument: ([\w-]+), Given: (.*?), Choices: (.*)$/s.exec(message);
  if (!found) return undefined;
  const [, name = "", given = "", choices = ""] = found;
  const flag = name.length === 1 ? `-${name}` : `--${kebab(name)}`;
  const options = choices.split(", ").join(", ");
  const what = given === "true" ? "needs a value" : `does not take ${given}`;
  return `${flag} ${what}; give one of ${options} (see mcpterm --help).`;
}

/** `max-tokens` as yargs also takes it, `maxTokens`. */
function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/**
 * The commands, in the order `mcpterm --help` lists them; each adds its `.command(...)`, whose
 * handler hands the typed result to `choose`.
 */
const COMMANDS = [
  interactiveCommand,
  toolsCommand,
  callCommand,
  traceCommand,
  replayCommand,
  devCommand,
  serveCommand,
  readCommand,
  resourcesCommand,
  promptsCommand,
  doctorCommand,
  authCommand,
  kbCommand,
] as const;

function buildParser(
  version: string,
  choose: (args: CliArgs) => void,
  launchWords: readonly string[] | undefined,
  words: readonly string[],
): Argv<GlobalOptions> {
  // Options end at `--`: what follows is kb's words, never an option's value (`kb search -- --k`).
  const dash = words.indexOf("--");
  const optionWords = dash === -1 ? words : words.slice(0, dash);
  const context: CommandContext = {
    choose,
    target: (parsed) => typedServer(launchWords, parsed),
    afterDash: dash === -1 ? [] : words.slice(dash + 1),
  };
  const parser = withGlobalOptions(
    yargs()
      .scriptName("mcpterm")
      .usage("$0 [options]\n\nA terminal assistant: any OpenAI-compatible model, MCP tools, risk tiers.")
      .version(version)
      .help()
      .alias("help", "h")
      .strict()
      // Before each command's own checks and handler, which expect one value per option.
      .middleware((parsed) => {
        noServerTyped(parsed);
        givenOnce(parsed);
        const options = (parser as unknown as { getOptions(): ParserOptions }).getOptions();
        givenWithValues(parsed, optionWords, options);
        valuesAsTyped(optionWords, options);
      }, true)
      .exitProcess(false)
      .wrap(null),
  );
  skipHelpLayout(parser);
  return COMMANDS.reduce((withCommands, addCommand) => addCommand(withCommands, context), parser);
}

/**
 * yargs lays out a command's whole help after running it, in case its handler asks to show
 * help; none of mcpterm's does (`--help` and a mistake lay it out when they need it). The layout
 * measures every line with string-width, which it loads for that: about 30 ms of every `call`,
 * `tools` or `kb` for a text nobody reads. yargs keeps the hook on its internal methods, the one
 * way to reach it; test/cli/start-up-loads.test.ts fails if a command loads string-width again.
 */
function skipHelpLayout(parser: Argv<GlobalOptions>): void {
  const usage = (parser as unknown as YargsInternals).getInternalMethods?.().getUsageInstance?.();
  if (typeof usage?.cacheHelpMessage === "function") usage.cacheHelpMessage = () => undefined;
}

/** The part of yargs' internals skipHelpLayout reaches: in a version without it, nothing is skipped. */
interface YargsInternals {
  getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } };
}

/** yargs reads `--prompt -` as a stray "-" (while `-p -` works), so join the pair first. */
function joinStdinPrompt(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? "";
    if (arg === "--prompt" && argv[index + 1] === "-") {
      joined.push("--prompt=-");
      index += 1;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

/** Options that may be given more than once, their values taken together. */
const REPEATABLE = new Set([
  "_",
  "$0",
  // Words after `--` (kb's, see noServerTyped).
  "--",
  "approve",
  "query",
  "root",
  "ignore",
  "watch",
  "call",
  "arguments",
  "header",
]);
/** Options repeatable only in some commands (`tools --server` and `trace --server` take one). */
const REPEATABLE_IN: Record<string, ReadonlySet<string>> = {
  replay: new Set(["server"]),
  tools: new Set(["search"]),
};

/**
 * Words after `--` for a command that starts no server of its own (`mcpterm -p hi -- node x.js`):
 * yargs keeps them under "--"; they are a mistake to name. `kb` takes them as its words (a query
 * or a file name that starts with `-`).
 */
function noServerTyped(parsed: Record<string, unknown>): void {
  const after = parsed["--"];
  if (!Array.isArray(after) || after.length === 0) return;
  const name = Array.isArray(parsed._) && parsed._.length > 0 ? String(parsed._[0]) : undefined;
  if (name === "kb") return;
  const command = name === undefined ? "mcpterm" : `mcpterm ${name}`;
  throw new Error(
    `${command} takes nothing after --: a server typed there is for ${[...LAUNCH_COMMANDS].join(", ")}; leave out -- and what follows it`,
  );
}

/**
 * A value option given twice is a mistake to name, not to guess at (which one wins?). The
 * values are not repeated in the message: one of them may be an API key.
 */
function givenOnce(parsed: Record<string, unknown>): void {
  // --no-kb is --kb's negation to yargs: with a folder too, the two say opposite things.
  if (Array.isArray(parsed.kb) && parsed.kb.includes(false))
    throw new Error("--no-kb and --kb <dir> say opposite things; give one of them");
  const command = Array.isArray(parsed._) ? String(parsed._[0]) : "";
  const repeatable = (name: string): boolean =>
    REPEATABLE.has(name) || REPEATABLE_IN[command]?.has(name) === true;
  const repeated = Object.entries(parsed)
    .filter(([name, value]) => !repeatable(name) && !/[A-Z]/.test(name) && Array.isArray(value))
    .filter(([, value]) => (value as unknown[]).some((item) => typeof item !== "boolean"))
    .map(([name]) => name);
  if (repeated.length === 0) return;
  // `-p` and `--prompt` are one option: name it by its long name.
  const long = repeated.filter((name) => name.length > 1);
  const names = (long.length > 0 ? long : repeated).map((name) => `--${name}`);
  throw new Error(`${names.join(", ")} was given more than once; give it once`);
}

/**
 * Options whose empty value means something, or is told in words of their own: `--resume` alone
 * picks a session, `--config ""` and `--prompt ""` say what they need.
 */
const OWN_EMPTY = new Set(["resume", "config", "prompt", "p"]);

/** The part of yargs' options givenWithValues reads: which take text or a number, and their aliases. */
interface ParserOptions {
  string: string[];
  number: string[];
  boolean: string[];
  array: string[];
  alias: Record<string, string[]>;
}

/**
 * A value option typed without its value (`--model` last, `--base-url --yes`, `--api-key ""`
 * from an empty `"$KEY"`) is a mistake to name: yargs reads it as an empty text, or leaves a
 * number out, and the run would quietly go on with the environment's or the default value.
 */
function givenWithValues(
  parsed: Record<string, unknown>,
  words: readonly string[],
  options: ParserOptions,
): void {
  const lists = new Set(options.array);
  // Typed as a flag: a positional argument (`call ""`) is the command's to judge, not a flag's.
  const typed = (name: string): boolean =>
    words.some((word) =>
      spellings(name, options).some((spelled) => word === spelled || word.startsWith(`${spelled}=`)),
    );
  for (const name of options.string) {
    if (lists.has(name) || OWN_EMPTY.has(name) || /[A-Z]/.test(name) || parsed[name] !== "") continue;
    if (typed(name)) throw new Error(`${shownFlag(name, options)} needs a value`);
  }
  for (const name of options.number) {
    if (lists.has(name) || /[A-Z]/.test(name)) continue;
    const spelled = spellings(name, options);
    for (let index = 0; index < words.length; index += 1) {
      const word = words[index] ?? "";
      const next = words[index + 1];
      // What follows is another flag (`--max-steps -p hi`), not a value; a negative number is one.
      const bare = spelled.includes(word) && (next === undefined || next === "" || /^-(?![\d.])/.test(next));
      if (bare || spelled.some((spelling) => word === `${spelling}=`))
        throw new Error(`${shownFlag(name, options)} needs a number`);
    }
  }
}

/**
 * Values yargs would read loosely, named instead: a number option's value must be decimal
 * (`--max-tokens 0x10` is 16 to JavaScript, `--temperature " "` 0), and a switch written with a
 * value takes true or false alone (`--yes=yes` is false to yargs, and the run would be denied
 * with "rerun with --yes"). Every spelling yargs takes is read: `--maxTokens`, and `--k` as
 * well as `-k`.
 */
function valuesAsTyped(words: readonly string[], options: ParserOptions): void {
  const spellingsOf = (name: string): string[] => spellings(name, options);
  const shown = (name: string): string => shownFlag(name, options);
  for (const name of options.number) {
    const spellings = spellingsOf(name);
    words.forEach((word, index) => {
      const value = spellings.includes(word)
        ? words[index + 1]
        : spellings.some((spelled) => word.startsWith(`${spelled}=`))
          ? word.slice(word.indexOf("=") + 1)
          : undefined;
      if (value !== undefined && !isDecimalNumber(value))
        throw new Error(
          `${shown(name)} needs a number written in decimal digits, got ${JSON.stringify(value)}`,
        );
    });
  }
  for (const name of options.boolean) {
    for (const spelled of spellingsOf(name)) {
      const typed = words.find((word) => word.startsWith(`${spelled}=`));
      const value = typed?.slice(spelled.length + 1);
      if (value !== undefined && value !== "true" && value !== "false")
        throw new Error(
          `${shown(name)} is a switch: give it alone (or =true, =false), not ${JSON.stringify(value)}`,
        );
    }
  }
}

/** Every way yargs takes an option typed: `-k` and `--k`; `--max-tokens` and `--maxTokens`. */
function spellings(name: string, options: ParserOptions): string[] {
  return [name, ...(options.alias[name] ?? [])].flatMap((spelled) =>
    spelled.length === 1
      ? [`-${spelled}`, `--${spelled}`]
      : [`--${spelled}`, `--${kebab(spelled)}`, `--${camel(spelled)}`],
  );
}

/** An option as a message names it: its longest name, in kebab-case (`--max-tokens`, `--k` as kb's help has it). */
function shownFlag(name: string, options: ParserOptions): string {
  const longest = [name, ...(options.alias[name] ?? [])].reduce((a, b) => (b.length > a.length ? b : a));
  return `--${kebab(longest)}`;
}
