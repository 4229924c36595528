import type { SessionStats } from "../agent/session.js";
import type { ToolNarrowing } from "../agent/narrowed-tool-host.js";
import type { AgentTool } from "../agent/tool-host.js";
import type { ModelPricing } from "../config/config-types.js";
import type { KnowledgeAccess } from "../kb/index.js";
import type { PageFetcher } from "../kb-docs/add-document.js";
import type { McpManager } from "../mcp/mcp-manager.js";
import type { Person } from "../person/person.js";
import type { ToolAllowances } from "../policy/tool-allowances.js";
import type { SecretRedactor } from "../policy/redact-secrets.js";
import type { SessionSummary } from "../session/resume-session.js";
import type { ToolSearch } from "../tool-search/index.js";

/** What a slash command produced; the TUI and the headless commands each render these their own way. */
export type CommandResult =
  | {
      kind: "table";
      title: string;
      columns: string[];
      rows: string[][];
      /** A line under the table, e.g. how to see more. */
      note?: string;
      /**
       * Cells before the last are never shortened (command syntax, no use cut): a row whose
       * cells are too wide for their column gets them whole on a line of their own.
       */
      wholeCells?: boolean;
      after?: CommandEffect;
    }
  | { kind: "text"; text: string; after?: CommandEffect }
  | { kind: "error"; message: string };

/** What the front end should do once it has shown the result. */
export type CommandEffect = "clear" | "exit";

/** The model in use, and a way to switch it (the front end owns the settings and the session). */
export interface ModelControl {
  /** The model name, or undefined when none is configured. */
  current(): string | undefined;
  /** Why there is no model, when there is none. */
  problem(): string | undefined;
  /** Switches to `name` for the following turns; throws a `ConfigError` when it cannot. */
  switchTo(name: string): void;
}

/** The folders offered to servers as MCP roots; relative paths are taken from the working folder. */
export interface RootControl {
  /** The roots, as absolute paths. */
  paths(): string[];
  add(folder: string): { ok: true; path: string; added: boolean } | { ok: false; reason: string };
  /** False when the folder was not a root. */
  remove(folder: string): boolean;
}

/**
 * Servers whose logged errors stay out of the transcript: every server (`all`) but the ones
 * named, or only the ones named. `set` with no server sets it for all of them.
 */
export interface NoticeControl {
  quieted(): { all: boolean; except: readonly string[] };
  set(server: string | undefined, shown: boolean): void;
}

/** What `/kb add` and `/kb remove` need: where relative paths start, and how pages are fetched. */
export interface DocumentAccess {
  cwd: string;
  fetchPage: PageFetcher;
  /** Who is asked before a page is fetched; with nobody there, `/kb add <url>` says to confirm with `--yes`. */
  person: Person;
  /** The session's "always allow" answers: one for fetching pages lets later fetches run unasked. */
  allowances: ToolAllowances;
}

/** The conversation's context: compact it now, or count what it holds (the front end owns the session). */
export interface ConversationControl {
  /** Compacts the history, keeping `focus` above all; a sentence saying what went, or why nothing could. */
  compact(focus: string | undefined): Promise<{ ok: true; text: string } | { ok: false; reason: string }>;
  /** Undefined when there is no session (no model configured). */
  stats(): Promise<SessionStats | undefined>;
  /** model.pricing from the config, when it gives prices. */
  pricing: ModelPricing | undefined;
}

/** The sessions saved in this working folder, and a way to go on with one (the TUI). */
export interface SessionControl {
  /** The newest saved sessions, newest first. */
  list(): Promise<SessionSummary[]>;
  /** Goes on with saved session `id`: the front end shows its transcript once the result is shown. */
  resume(id: string): Promise<{ ok: true; text: string } | { ok: false; reason: string }>;
}

/** Everything a command may read or change. */
export interface CommandContext {
  manager: McpManager;
  /** Removes secrets from what servers send before it is shown (resources, prompts, descriptions). */
  redactor: SecretRedactor;
  /** Every tool the model can call right now, with tier and reason. */
  tools(): AgentTool[];
  knowledge(): KnowledgeAccess;
  model: ModelControl;
  /**
   * Forgets the conversation (not the servers, allowances or the knowledge base). Returns false,
   * clearing nothing, while a turn runs: the turn is still adding to that history.
   */
  clearConversation(): boolean;
  /** Where this session's trace is being written, if anywhere. */
  traceFile(): string | undefined;
  commands: readonly SlashCommand[];
  /** Absent where no roots are offered (a front end that does not keep a root list). */
  roots?: RootControl;
  /** Which servers' logged errors are kept out of the transcript (/notices). */
  notices?: NoticeControl;
  /** The person's "always allow" rules (/permissions); absent where none are kept. */
  allowances?: ToolAllowances;
  /** Absent where documents cannot be added (`/kb add` then says so). */
  documents?: DocumentAccess;
  /** Absent where there is no conversation to manage. */
  conversation?: ConversationControl;
  /** Which tools the model is offered this session (/tools hide, /tools show); absent where fixed. */
  narrowing?: ToolNarrowing;
  /** Absent where sessions cannot be resumed. */
  sessions?: SessionControl;
  /** Which tools each request offers when there are too many for all (/tools, /tools pin); absent where none is run. */
  toolSearch?: ToolSearch;
  /** Why the config's servers were not started at all (an untrusted config), if so. */
  serversNotStarted?: string;
}

/** What Tab can offer after a command: the servers and tools there are now. */
export interface CompletionSource {
  servers: readonly string[];
  tools: ReadonlyArray<{ server: string; name: string }>;
  /** Server prompts as commands are typed, without the slash: `everything:args-prompt`. */
  prompts?: readonly string[];
  /** Resources the servers list, by URI as shown. */
  resources?: ReadonlyArray<{ server: string; uri: string }>;
}

export interface SlashCommand {
  /** Without the slash, e.g. "tools". */
  name: string;
  /** e.g. "[server] [tool]". */
  usage: string;
  description: string;
  /** `args` split at spaces, a quoted word kept whole (commandWords); `typed` the text after the name as typed. */
  run(context: CommandContext, args: string[], typed: string): Promise<CommandResult>;
  /** Words Tab may complete the next argument to, given the arguments typed before it. */
  complete?(args: readonly string[], source: CompletionSource): readonly string[];
}
