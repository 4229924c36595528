import yargs, { type Argv } from "yargs";
import { splitCommandLine } from "./core/config/command-line.js";
import { UsageError } from "./core/errors.js";
import { isLogLevel } from "./core/mcp/server-log.js";
import { TIERS, isTier, type Tier } from "./core/policy/tiers.js";
import type { LoggingLevel } from "./core/deprecated-mcp.js";
import { PROTOCOL_SETTINGS, type ProtocolSetting } from "./core/config/config-types.js";

export type OutputFormat = "text" | "json" | "stream-json";

/** Options every command that talks to servers or a model shares. */
export interface CommonArgs {
  config: string | undefined;
  kbDir: string | undefined;
  debug: boolean;
  /** --protocol: the MCP revision to speak with every server, over their entries' own. */
  protocol?: ProtocolSetting;
  /**
   * --trust-config: the project's config may do what it asks without a question — start its
   * servers (a session), send values from the user's environment to the places it names (the
   * commands that start servers). False for commands without the flag.
   */
  trustConfig: boolean;
}

export interface ModelArgs {
  model: string | undefined;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Tokens the model reads at most; unset: the config, the server's report, or the default. */
  contextWindow?: number;
  temperature?: number;
  maxTokens?: number;
}

/** What the TUI and one-shot mode share: how to reach the model, servers and knowledge. */
export interface SessionArgs {
  common: CommonArgs;
  modelArgs: ModelArgs;
  maxSteps: number;
  /** Record the trace here instead of .mcpterm/traces/<session>.jsonl. */
  trace: string | undefined;
  kb: boolean;
  /** --root: folders offered to servers as MCP roots besides the working folder. */
  roots: string[];
  /** --continue (the latest saved session), --resume <id>, or --resume alone (pick one). */
  resume: ResumeChoice | undefined;
}

export type ResumeChoice = { kind: "latest" } | { kind: "id"; id: string } | { kind: "pick" };

/** What `mcpterm trace` reads and how it shows it. */
export interface TraceCommandArgs {
  /** A trace file; undefined means the newest trace in `<cwd>/.mcpterm/traces`. */
  file: string | undefined;
  /** 1-based turn across the file. */
  turn: number | undefined;
  json: boolean;
  /** Write an OTLP/JSON export here instead of printing. */
  otlp: string | undefined;
  /** List the JSON-RPC frames instead of the tree. */
  wire: boolean;
  /** With `wire`: only this server's frames. */
  server: string | undefined;
  /** With `wire`: long strings whole instead of summarized. */
  full: boolean;
  /** Print the recorded MCP calls as JSON lines (a calls file for `mcpterm replay`). */
  calls: boolean;
}

/** `--server name=<command or url>`: the server a replay sends a recorded server's calls to instead. */
export type ServerOverride =
  { name: string; command: string; args: string[] } | { name: string; url: string };

/** What `mcpterm replay` compares with and how (shared with `mcpterm dev --replay`). */
export interface ReplayFlags {
  json: boolean;
  yes: boolean;
  allowSecretArguments: boolean;
  /** JSON paths of fields left out of every comparison (`--ignore`), besides those in `ignoreFile`. */
  ignore: string[];
  ignoreFile: string | undefined;
}

/** `mcpterm dev --call "<tool> [json]"`: a call made again after every start. */
export interface SavedCall {
  tool: string;
  /** JSON arguments as typed, undefined for none. */
  arguments: string | undefined;
}

/** How a one-shot run prints and what it may run unasked. */
export interface OneShotArgs {
  output: OutputFormat;
  approve: Tier[];
  yes: boolean;
  /** Calls may send secrets found in their arguments (never implied by --yes or --approve). */
  allowSecretArguments: boolean;
  /** Servers' sampling requests are answered by the model without a person (never implied by --yes). */
  allowSampling: boolean;
}

export type CliArgs =
  | { command: "print"; text: string }
  | ({
      command: "interactive";
      /**
       * One-shot flags given without --prompt: they apply when stdin is piped (a one-shot run on
       * the piped text), and are a usage error at a terminal. Never silently dropped.
       */
      oneShot: OneShotArgs;
      /** Which of them were given, as typed (e.g. "--output"), to name them in that error. */
      oneShotFlags: string[];
    } & SessionArgs)
  | ({
      command: "prompt";
      /** The prompt text, or "-" to read it from standard input. */
      prompt: string;
    } & OneShotArgs &
      SessionArgs)
  | {
      command: "tools";
      common: CommonArgs;
      server: string | undefined;
      /** One tool of `server` to show whole. */
      tool: string | undefined;
      /** `--search`, repeatable: rank the tools for each request as a turn would. */
      search: string[];
      json: boolean;
    }
  | {
      command: "call";
      common: CommonArgs;
      server: string;
      tool: string;
      /** JSON arguments as typed, undefined for none. */
      arguments: string | undefined;
      json: boolean;
      yes: boolean;
      allowSecretArguments: boolean;
      timeoutMs: number | undefined;
    }
  | { command: "read"; common: CommonArgs; server: string; uri: string; json: boolean }
  /** `mcpterm resources` and `mcpterm prompts`: what the servers offer besides tools. */
  | { command: "resources" | "prompts"; common: CommonArgs; server: string | undefined; json: boolean }
  | {
      command: "serve";
      common: CommonArgs;
      /** Serve Streamable HTTP on this port (0: any free one) instead of stdio. */
      http: number | undefined;
      host: string;
      /** Whether --host was given (it only applies with --http). */
      hostGiven: boolean;
      /** The environment variable holding the bearer token HTTP clients must send. */
      tokenEnv: string | undefined;
    }
  /** `mcpterm auth login|logout|status`: OAuth sign-ins to remote servers. */
  | {
      command: "auth";
      common: CommonArgs;
      action: "login" | "logout" | "status";
      server: string | undefined;
      /** login: open the sign-in page in a browser when the person says yes (--no-browser: only show it). */
      browser: boolean;
      json: boolean;
    }
  | ({
      command: "replay";
      common: CommonArgs;
      /** A trace or calls file; undefined means the newest trace in `<cwd>/.mcpterm/traces`. */
      file: string | undefined;
      servers: ServerOverride[];
      timeoutMs: number | undefined;
    } & ReplayFlags)
  | ({
      command: "dev";
      common: CommonArgs;
      server: string;
      /** Files and folders to watch besides (or, when given, instead of) the files its command line names. */
      watch: string[];
      calls: SavedCall[];
      /** A trace or calls file whose calls to this server are replayed after every start. */
      replay: string | undefined;
      logLevel: LoggingLevel;
    } & Omit<ReplayFlags, "json">)
  | ({ command: "trace"; common: CommonArgs } & TraceCommandArgs)
  | {
      command: "kb";
      common: CommonArgs;
      action: "index" | "search" | "stats";
      query: string | undefined;
      k: number;
      json: boolean;
    }
  | {
      command: "kb";
      common: CommonArgs;
      action: "add";
      /** A file's path, or an http(s) URL to fetch. */
      source: string;
      /** The name to give it in the knowledge folder, instead of one taken from the source. */
      as: string | undefined;
      force: boolean;
      yes: boolean;
      json: boolean;
    }
  | { command: "kb"; common: CommonArgs; action: "remove"; path: string; json: boolean };

export const DEFAULT_MAX_STEPS = 20;

/**
 * Parses the command line into one typed command. Pure: no IO, no exit; `--help` and
 * `--version` come back as text to print, and mistakes as `UsageError`.
 */
export async function parseArgs(argv: readonly string[], version: string): Promise<CliArgs> {
  let chosen: CliArgs | undefined;
  const parser = buildParser(version, (args) => {
    chosen = args;
  });
  const output = await new Promise<string>((resolve, reject) => {
    try {
      void parser.parse(
        joinStdinPrompt(argv),
        {},
        (error: Error | null | undefined, parsed: { _?: unknown[] } | undefined, text: string) => {
          if (error) reject(new UsageError(usageSentence(error.message, parsed?._?.[0])));
          else resolve(text);
        },
      );
    } catch (error) {
      // Command handlers throw plain errors for values yargs cannot check by itself.
      reject(new UsageError(`${(error as Error).message} (see mcpterm --help)`));
    }
  });
  if (output) return { command: "print", text: output };
  if (!chosen) throw new UsageError("Nothing to do (see mcpterm --help).");
  return chosen;
}

/**
 * yargs's own words for a mistake, with where to look: for a command short of its arguments
 * (`mcpterm call`), which command it is and its own --help, which shows what it takes.
 */
function usageSentence(message: string, command: unknown): string {
  const short = /^Not enough non-option arguments: got (\d+), need at least (\d+)$/.exec(message);
  if (short && typeof command === "string" && /^[a-z]+$/.test(command)) {
    return `mcpterm ${command} needs more arguments (got ${short[1]}, needs at least ${short[2]}); see mcpterm ${command} --help for what it takes.`;
  }
  return `${message} (see mcpterm --help)`;
}

function buildParser(version: string, choose: (args: CliArgs) => void): Argv {
  return (
    yargs()
      .scriptName("mcpterm")
      .usage("$0 [options]\n\nA terminal assistant: any OpenAI-compatible model, MCP tools, risk tiers.")
      .version(version)
      .help()
      .alias("help", "h")
      .strict()
      // Before each command's own checks and handler, which expect one value per option.
      .middleware((parsed) => {
        givenOnce(parsed);
      }, true)
      .exitProcess(false)
      .wrap(null)
      .option("config", { type: "string", describe: "mcp.config.json to load (default ./mcp.config.json)" })
      .option("kb", {
        type: "string",
        describe: "knowledge base folder (default ./knowledge_base); --no-kb turns it off",
      })
      .option("debug", { type: "boolean", default: false, describe: "print stack traces and server stderr" })
      .option("protocol", {
        type: "string",
        choices: PROTOCOL_SETTINGS,
        describe: "MCP revision to speak with every server (default: each entry's, else auto)",
      })
      .command(
        "$0",
        "interactive assistant, or a one-shot answer with --prompt",
        (command) =>
          command
            .option("prompt", {
              alias: "p",
              type: "string",
              describe: 'one-shot: the question, or "-" to read stdin',
            })
            .option("model", { type: "string", describe: "model name (env MCPTERM_MODEL)" })
            .option("base-url", {
              type: "string",
              describe: "OpenAI-compatible base URL (env OPENAI_BASE_URL)",
            })
            .option("api-key", { type: "string", describe: "API key (env OPENAI_API_KEY)" })
            .option("context-window", {
              type: "number",
              describe: "the model's context window in tokens (env MCPTERM_CONTEXT_WINDOW)",
            })
            .option("temperature", {
              type: "number",
              describe: "sampling temperature sent with each request (env MCPTERM_TEMPERATURE)",
            })
            .option("max-tokens", {
              type: "number",
              describe: "longest answer in tokens, sent with each request (env MCPTERM_MAX_TOKENS)",
            })
            .option("approve", {
              type: "string",
              describe: `tiers that run without asking (one-shot): ${TIERS.join(",")}`,
              coerce: parseTiers,
            })
            .option("yes", { type: "boolean", describe: "approve every tier (one-shot)" })
            .option("allow-secret-arguments", {
              type: "boolean",
              describe: "let calls send secrets found in their arguments (one-shot; --yes does not)",
            })
            .option("allow-sampling", {
              type: "boolean",
              describe: "answer servers' sampling requests with the model (one-shot; --yes does not)",
            })
            .option("root", {
              type: "string",
              array: true,
              describe: "also offer this folder to servers as an MCP root (repeatable)",
            })
            .option("output", {
              choices: ["text", "json", "stream-json"] as const,
              describe: "one-shot output (default text)",
            })
            .option("trace", { type: "string", describe: "also write the trace to this .jsonl file" })
            .option("trust-config", {
              type: "boolean",
              default: false,
              describe: "allow this run to start the servers of the project's mcp.config.json",
            })
            .option("max-steps", {
              type: "number",
              default: DEFAULT_MAX_STEPS,
              describe: "model steps per turn",
            })
            .option("continue", {
              type: "boolean",
              describe: "go on with the latest saved session of this folder",
            })
            .option("resume", {
              type: "string",
              describe: "go on with saved session [id]; without one, pick it from a list (TUI)",
            })
            .conflicts("continue", "resume")
            .check((parsed) => positiveWholeNumber("--max-steps", parsed.maxSteps)),
        (parsed) => {
          const session: SessionArgs = {
            common: commonArgs(parsed),
            modelArgs: {
              model: parsed.model,
              baseUrl: parsed.baseUrl,
              apiKey: parsed.apiKey,
              ...(parsed.contextWindow === undefined ? {} : { contextWindow: parsed.contextWindow }),
              ...(parsed.temperature === undefined ? {} : { temperature: parsed.temperature }),
              ...(parsed.maxTokens === undefined ? {} : { maxTokens: parsed.maxTokens }),
            },
            maxSteps: parsed.maxSteps,
            trace: parsed.trace,
            // yargs reads --no-kb as the negation of --kb <dir>.
            kb: (parsed.kb as unknown) !== false,
            roots: (parsed.root ?? []).map(String),
            resume: resumeChoice(parsed.continue, parsed.resume),
          };
          const oneShot: OneShotArgs = {
            output: parsed.output ?? "text",
            approve: parsed.approve ?? [],
            yes: parsed.yes === true,
            allowSecretArguments: parsed.allowSecretArguments === true,
            allowSampling: parsed.allowSampling === true,
          };
          if (parsed.prompt === undefined) {
            const given = [
              parsed.output === undefined ? undefined : "--output",
              parsed.approve === undefined ? undefined : "--approve",
              parsed.yes === undefined ? undefined : "--yes",
              parsed.allowSecretArguments === undefined ? undefined : "--allow-secret-arguments",
              parsed.allowSampling === undefined ? undefined : "--allow-sampling",
            ].filter((flag) => flag !== undefined);
            choose({ command: "interactive", ...session, oneShot, oneShotFlags: given });
            return;
          }
          if (parsed.prompt.trim() === "")
            throw new Error('--prompt needs text, or "-" to read it from stdin');
          choose({ command: "prompt", ...session, ...oneShot, prompt: parsed.prompt });
        },
      )
      .command(
        "tools [tool]",
        "connect to the servers and list their tools with tiers; --server s <tool> shows one whole",
        (command) =>
          withTrustConfig(command)
            .positional("tool", {
              type: "string",
              describe: "with --server: show this tool's whole definition",
            })
            .option("server", { type: "string", describe: "only this server" })
            .option("search", {
              type: "string",
              array: true,
              describe: "rank the tools for this request as a turn would (repeatable: one list per request)",
            })
            .option("json", { type: "boolean", default: false }),
        (parsed) => {
          const search = (parsed.search ?? []).map(String);
          if (search.some((query) => query.trim() === ""))
            throw new Error('--search needs the text of a request, e.g. --search "weather in Paris"');
          if (search.length > 0 && parsed.tool !== undefined)
            throw new Error("--search ranks every tool; leave out the tool name");
          if (parsed.tool !== undefined && parsed.server === undefined)
            throw new Error(
              `name the server of tool "${parsed.tool}": mcpterm tools --server <server> ${parsed.tool}`,
            );
          choose({
            command: "tools",
            common: commonArgs(parsed),
            server: parsed.server,
            tool: parsed.tool,
            search,
            json: parsed.json,
          });
        },
      )
      .command(
        "call <target> [arguments]",
        'call one tool directly: mcpterm call <server>/<tool> \'{"json":"args"}\'',
        (command) =>
          withTrustConfig(command)
            .positional("target", { type: "string", demandOption: true, describe: "<server>/<tool>" })
            .positional("arguments", { type: "string", describe: "tool arguments as a JSON object" })
            .option("json", { type: "boolean", default: false })
            .option("yes", { type: "boolean", default: false, describe: "run a risky tool without asking" })
            .option("allow-secret-arguments", {
              type: "boolean",
              default: false,
              describe: "send a secret found in the arguments without asking (--yes does not)",
            })
            .option("timeout", { type: "number", describe: "milliseconds to wait for the result" })
            .check((parsed) => positiveWholeNumber("--timeout", parsed.timeout, MAX_TIMER_MS)),
        (parsed) => {
          const [server, ...rest] = parsed.target.split("/");
          const tool = rest.join("/");
          if (!server || !tool) throw new Error(`expected <server>/<tool>, got "${parsed.target}"`);
          choose({
            command: "call",
            common: commonArgs(parsed),
            server,
            tool,
            arguments: parsed.arguments,
            json: parsed.json,
            yes: parsed.yes,
            allowSecretArguments: parsed.allowSecretArguments,
            timeoutMs: parsed.timeout,
          });
        },
      )
      .command(
        "trace [file]",
        "show a recorded session: the newest in .mcpterm/traces, or [file]",
        (command) =>
          command
            .positional("file", { type: "string", describe: "a trace .jsonl file" })
            .option("turn", { type: "number", describe: "only this turn (1-based)" })
            .option("json", { type: "boolean", default: false, describe: "the grouped trace as JSON" })
            .option("otlp", {
              type: "string",
              describe: "write OpenTelemetry spans (OTLP JSON) to this file",
            })
            .option("wire", { type: "boolean", default: false, describe: "list the MCP JSON-RPC frames" })
            .option("server", { type: "string", describe: "with --wire: only this server's frames" })
            .option("full", {
              type: "boolean",
              default: false,
              describe: "with --wire: long strings (base64 images) whole, not summarized",
            })
            .option("calls", {
              type: "boolean",
              default: false,
              describe: "print the recorded MCP calls as JSON lines, to edit and give to mcpterm replay",
            })
            .check((parsed) => positiveWholeNumber("--turn", parsed.turn)),
        (parsed) =>
          choose({
            command: "trace",
            common: commonArgs(parsed),
            file: parsed.file,
            turn: parsed.turn,
            json: parsed.json,
            otlp: parsed.otlp,
            wire: parsed.wire,
            server: parsed.server,
            full: parsed.full,
            calls: parsed.calls,
          }),
      )
      .command(
        "replay [trace]",
        "send the MCP calls of a recorded session again, compare each answer with the recorded one",
        (command) =>
          withTrustConfig(replayOptions(command))
            .positional("trace", {
              type: "string",
              describe: "a trace, or a calls file from mcpterm trace --calls (default: the newest trace)",
            })
            .option("server", {
              type: "string",
              array: true,
              describe: "name=<command or url>: send that server's calls here instead (repeatable)",
            })
            .option("json", { type: "boolean", default: false, describe: "the whole comparison as JSON" })
            .option("timeout", { type: "number", describe: "milliseconds to wait for each answer" })
            .check((parsed) => positiveWholeNumber("--timeout", parsed.timeout, MAX_TIMER_MS)),
        (parsed) =>
          choose({
            command: "replay",
            common: commonArgs(parsed),
            file: parsed.trace,
            servers: (parsed.server ?? []).map((spec) => serverOverride(spec)),
            json: parsed.json,
            timeoutMs: parsed.timeout,
            ...replayFlags(parsed),
          }),
      )
      .command(
        "dev <server>",
        "run one server, restart it whenever its files change, and show what changed in its tools",
        (command) =>
          withTrustConfig(replayOptions(command))
            .positional("server", { type: "string", demandOption: true, describe: "a server of the config" })
            .option("watch", {
              type: "string",
              array: true,
              describe: "a file or folder to watch instead of the files its command line names (repeatable)",
            })
            .option("call", {
              type: "string",
              array: true,
              describe: "'<tool> [json]': call this tool after every start (repeatable)",
            })
            .option("replay", {
              type: "string",
              describe: "a trace or calls file whose calls to this server are replayed after every start",
            })
            .option("log-level", {
              type: "string",
              default: "debug",
              describe: "the level of the server's log messages to show (logging/setLevel)",
            })
            .check((parsed) => {
              if (typeof parsed.logLevel !== "string" || !isLogLevel(parsed.logLevel))
                throw new Error(
                  `--log-level must be one of debug, info, notice, warning, error, critical, alert, emergency, got ${JSON.stringify(parsed.logLevel)}`,
                );
              return true;
            }),
        (parsed) =>
          choose({
            command: "dev",
            common: commonArgs(parsed),
            server: parsed.server,
            watch: parsed.watch ?? [],
            calls: (parsed.call ?? []).map((spec) => savedCall(spec)),
            replay: parsed.replay,
            logLevel: parsed.logLevel as LoggingLevel,
            ...replayFlags(parsed),
          }),
      )
      .command(
        "serve",
        "run the knowledge base as an MCP server on stdio, or on Streamable HTTP with --http",
        (command) =>
          command
            .option("http", {
              type: "number",
              describe: "serve Streamable HTTP on this port (0: any free port)",
            })
            .option("host", {
              type: "string",
              describe: "with --http: the address to bind (default 127.0.0.1)",
            })
            .option("token-env", {
              type: "string",
              describe: "with --http: the environment variable holding the bearer token clients must send",
            })
            .check((parsed) => {
              const port = parsed.http;
              if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
                throw new Error(`--http must be a port from 0 to 65535, got ${String(port)}`);
              return true;
            }),
        (parsed) =>
          choose({
            command: "serve",
            common: commonArgs(parsed),
            http: parsed.http,
            host: parsed.host ?? "127.0.0.1",
            hostGiven: parsed.host !== undefined,
            tokenEnv: parsed["token-env"],
          }),
      )
      .command(
        "read <server> <uri>",
        "read one MCP resource from a server",
        (command) =>
          withTrustConfig(command)
            .positional("server", { type: "string", demandOption: true })
            .positional("uri", { type: "string", demandOption: true })
            .option("json", { type: "boolean", default: false }),
        (parsed) =>
          choose({
            command: "read",
            common: commonArgs(parsed),
            server: parsed.server,
            uri: parsed.uri,
            json: parsed.json,
          }),
      )
      .command(
        "resources [server]",
        "connect to the servers and list their resources and resource templates",
        (command) =>
          withTrustConfig(command)
            .positional("server", { type: "string", describe: "only this server" })
            .option("json", { type: "boolean", default: false, describe: "whole definitions as JSON" }),
        (parsed) =>
          choose({
            command: "resources",
            common: commonArgs(parsed),
            server: parsed.server,
            json: parsed.json,
          }),
      )
      .command(
        "prompts [server]",
        "connect to the servers and list their prompts with their arguments",
        (command) =>
          withTrustConfig(command)
            .positional("server", { type: "string", describe: "only this server" })
            .option("json", { type: "boolean", default: false, describe: "whole definitions as JSON" }),
        (parsed) =>
          choose({
            command: "prompts",
            common: commonArgs(parsed),
            server: parsed.server,
            json: parsed.json,
          }),
      )
      .command(
        "auth <action> [server]",
        "sign in to remote servers (OAuth): auth login <server> | auth logout <server> | auth status",
        (command) =>
          withTrustConfig(command)
            .positional("action", { choices: ["login", "logout", "status"] as const, demandOption: true })
            .positional("server", { type: "string", describe: "the server, as named in mcp.config.json" })
            .option("browser", {
              type: "boolean",
              default: true,
              describe: "login: offer to open the sign-in page in a browser (--no-browser only shows it)",
            })
            .option("json", { type: "boolean", default: false, describe: "status as JSON" })
            .check((parsed) => {
              if (parsed.action !== "status" && parsed.server === undefined)
                throw new Error(
                  `auth ${parsed.action} needs the server's name: mcpterm auth ${parsed.action} <server>`,
                );
              return true;
            }),
        (parsed) =>
          choose({
            command: "auth",
            common: commonArgs(parsed),
            action: parsed.action,
            server: parsed.server,
            browser: parsed.browser,
            json: parsed.json,
          }),
      )
      .command(
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
            .option("json", { type: "boolean", default: false })
            .check((parsed) => positiveWholeNumber("--k", parsed.k)),
        (parsed) => choose(kbArgs(parsed)),
      )
  );
}

function kbArgs(parsed: {
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
}): CliArgs {
  const common = commonArgs(parsed);
  const { action, json } = parsed;
  if (action !== "add" && (parsed.as !== undefined || parsed.force || parsed.yes))
    throw new Error("--as, --force and --yes only apply to mcpterm kb add");
  if (action === "add" || action === "remove") {
    // One path or URL, exactly as typed: a name with spaces is quoted, never joined from words.
    const [target, ...extra] = parsed.query ?? [];
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
  return { command: "kb", common, action, query: parsed.query?.join(" "), k: parsed.k, json };
}

function resumeChoice(latest: boolean | undefined, resume: string | undefined): ResumeChoice | undefined {
  if (latest === true) return { kind: "latest" };
  if (resume === undefined) return undefined;
  return resume.trim() === "" ? { kind: "pick" } : { kind: "id", id: resume.trim() };
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

/** A yargs check: the option, when given, is a whole number of at least 1 (NaN from "abc" included). */
/** The longest a Node timer can wait (about 24.8 days); a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

function positiveWholeNumber(flag: string, value: unknown, max = Number.MAX_SAFE_INTEGER): true {
  // --help skips defaults, so an absent value is fine here.
  if (
    value !== undefined &&
    (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max)
  ) {
    const range = max === Number.MAX_SAFE_INTEGER ? "of at least 1" : `from 1 to ${max}`;
    throw new Error(
      `${flag} must be a whole number ${range}, got ${typeof value === "number" ? String(value) : JSON.stringify(value)}`,
    );
  }
  return true;
}

function commonArgs(parsed: {
  config?: string | undefined;
  kb?: unknown;
  debug?: boolean | undefined;
  protocol?: string | undefined;
  trustConfig?: boolean | undefined;
}): CommonArgs {
  const protocol = PROTOCOL_SETTINGS.find((setting) => setting === parsed.protocol);
  return {
    config: parsed.config,
    kbDir: typeof parsed.kb === "string" ? parsed.kb : undefined,
    debug: parsed.debug === true,
    ...(protocol ? { protocol } : {}),
    trustConfig: parsed.trustConfig === true,
  };
}

/**
 * --trust-config on a command that starts the config's servers outside a session (`tools`,
 * `call`, `read`, `resources`, `prompts`, `dev`, `replay`, `auth login`): running the command is
 * the request to start them, but a value from the user's environment goes to a place the
 * project names only with a yes, or this flag.
 */
function withTrustConfig<T>(command: Argv<T>) {
  return command.option("trust-config", {
    type: "boolean",
    default: false,
    describe:
      "let the config send values from your environment (${VAR} in headers, url, oauth) to the places it names, unasked",
  });
}

/** What replay and dev share: approval of the calls they send, and what comparisons ignore. */
function replayOptions<T>(command: Argv<T>) {
  return command
    .option("yes", {
      type: "boolean",
      default: false,
      describe: "send risky (dangerous, external) calls too",
    })
    .option("allow-secret-arguments", {
      type: "boolean",
      default: false,
      describe: "send calls whose arguments hold a secret (--yes does not)",
    })
    .option("ignore", {
      type: "string",
      array: true,
      describe: "a JSON path left out of every comparison, e.g. $.structuredContent.timestamp (repeatable)",
    })
    .option("ignore-file", {
      type: "string",
      describe: "a file of such JSON paths, one a line (# comments)",
    });
}

function replayFlags(parsed: {
  yes: boolean;
  allowSecretArguments: boolean;
  ignore?: Array<string | number> | undefined;
  ignoreFile?: string | undefined;
}): Omit<ReplayFlags, "json"> {
  return {
    yes: parsed.yes,
    allowSecretArguments: parsed.allowSecretArguments,
    ignore: (parsed.ignore ?? []).map(String),
    ignoreFile: parsed.ignoreFile,
  };
}

/** `name=<command line>` or `name=<http(s) url>`. */
export function serverOverride(spec: string): ServerOverride {
  const equals = spec.indexOf("=");
  const name = spec.slice(0, Math.max(0, equals)).trim();
  const target = spec.slice(equals + 1).trim();
  if (equals <= 0 || name === "" || target === "")
    throw new Error(
      `--server needs name=<command or url>, e.g. --server fixture="node build/server.js", got "${spec}"`,
    );
  if (/^https?:\/\//i.test(target)) return { name, url: target };
  const words = splitCommandLine(target);
  if (typeof words === "string") throw new Error(`--server ${name}: ${words}`);
  const [command, ...args] = words;
  if (command === undefined) throw new Error(`--server ${name} names no command`);
  return { name, command, args };
}

/** `<tool> [json]`: the tool's name, then its arguments as JSON. */
export function savedCall(spec: string): SavedCall {
  const trimmed = spec.trim();
  const space = trimmed.search(/\s/);
  const tool = space === -1 ? trimmed : trimmed.slice(0, space);
  const rest = space === -1 ? "" : trimmed.slice(space).trim();
  if (tool === "")
    throw new Error(`--call needs a tool name and optional JSON arguments, e.g. --call 'echo {"text":"hi"}'`);
  return { tool, arguments: rest === "" ? undefined : rest };
}

/** Options that may be given more than once, their values taken together. */
const REPEATABLE = new Set(["_", "$0", "approve", "query", "root", "ignore", "watch", "call"]);
/** Options repeatable only in some commands (`tools --server` and `trace --server` take one). */
const REPEATABLE_IN: Record<string, ReadonlySet<string>> = {
  replay: new Set(["server"]),
  tools: new Set(["search"]),
};

/**
 * A value option given twice is a mistake to name, not to guess at (which one wins?). The
 * values are not repeated in the message: one of them may be an API key.
 */
function givenOnce(parsed: Record<string, unknown>): void {
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

/** `--approve a,b`; given more than once, the tiers of every one count. */
export function parseTiers(list: string | readonly string[] | undefined): Tier[] {
  if (list === undefined) return [];
  const names = (typeof list === "string" ? [list] : list)
    .flatMap((item) => item.split(","))
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const unknown = names.filter((name) => !isTier(name));
  if (unknown.length > 0) {
    throw new Error(`--approve got unknown tier "${unknown.join(", ")}"; use any of ${TIERS.join(", ")}`);
  }
  return names.filter(isTier);
}
