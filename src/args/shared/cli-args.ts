import type { NamedLaunch } from "../../core/config/ad-hoc-server.js";
import type { Tier } from "../../core/policy/tiers.js";
import type { LoggingLevel } from "../../core/deprecated-mcp.js";
import type { ProtocolSetting } from "../../core/config/config-types.js";

export type OutputFormat = "text" | "json" | "stream-json";

/** Options every command that talks to servers or a model shares. */
export interface CommonArgs {
  config: string | undefined;
  kbDir: string | undefined;
  debug: boolean;
  /** --protocol: the MCP revision to speak with every server, over their entries' own. */
  protocol?: ProtocolSetting;
  /**
   * The server typed on the command line (`-- <command> [args…]` or `--url <url>`) instead of
   * one of the config's; no config file is read then. Only the commands that start servers take it.
   */
  target?: NamedLaunch;
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
  /** --otlp-endpoint: export spans live to this OTLP/HTTP collector. */
  otlpEndpoint: string | undefined;
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
export type ServerOverride = NamedLaunch;

/** What `mcpterm replay` compares with and how (shared with `mcpterm dev --replay`). */
export interface ReplayFlags {
  json: boolean;
  yes: boolean;
  allowSecretArguments: boolean;
  /**
   * JSON paths of fields left out of every comparison (`--ignore`), besides those in `ignoreFile`;
   * `<tool>:<path>` leaves it out of that tool's answers only.
   */
  ignore: string[];
  ignoreFile: string | undefined;
  /** A call at least this many times slower than recorded, and `slowMs` slower, is a finding. */
  slowFactor: number;
  slowMs: number;
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
      /** False with --no-kb: `--search` then leaves out the knowledge base, as a turn would. */
      kb: boolean;
      json: boolean;
    }
  | {
      command: "call";
      common: CommonArgs;
      server: string;
      tool: string;
      /** The arguments as typed: a JSON object, `key=value` words, or both. */
      arguments: string[];
      json: boolean;
      yes: boolean;
      allowSecretArguments: boolean;
      timeoutMs: number | undefined;
    }
  | { command: "read"; common: CommonArgs; server: string; uri: string; json: boolean; follow: boolean }
  /** `mcpterm resources` and `mcpterm prompts`: what the servers offer besides tools. */
  | { command: "resources"; common: CommonArgs; server: string | undefined; json: boolean }
  | {
      command: "prompts";
      common: CommonArgs;
      server: string | undefined;
      /** A prompt of `server` to render instead of listing them, with its arguments as typed. */
      prompt: string | undefined;
      arguments: string[];
      json: boolean;
    }
  /** `mcpterm doctor`: every step of a server's start and use checked, with its evidence. */
  | {
      command: "doctor";
      common: CommonArgs;
      server: string | undefined;
      json: boolean;
      /** Call each read-only tool with generated arguments (`--no-calls`: do not). */
      calls: boolean;
      timeoutMs: number | undefined;
    }
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
/** The most steps a turn may be allowed: past it a model that loops runs for hours. */
export const MAX_STEPS_LIMIT = 1000;
