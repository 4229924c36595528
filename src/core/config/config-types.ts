import type { ServerOAuth } from "./server-oauth.js";
import type { Tier } from "../policy/tiers.js";
import { DEFAULT_TOOL_SEARCH, type ToolSearchSettings } from "./tool-search-settings.js";

/** "http" is Streamable HTTP; the MCP manager falls back to SSE when the server only speaks that. */
export type ServerTransport = "stdio" | "http" | "sse";

/**
 * The MCP revision to speak with a server: `auto` asks it (server/discover) and speaks 2025-11-25
 * to one that does not answer; a revision pins it, to test a server against that revision.
 */
export const PROTOCOL_SETTINGS = ["auto", "2025-11-25", "2026-07-28"] as const;
export type ProtocolSetting = (typeof PROTOCOL_SETTINGS)[number];

export interface ServerConfig {
  name: string;
  transport: ServerTransport;
  /** Typed on the command line (`--url`, `-- <command>`), not read from a config: advice names flags, not keys. */
  typed?: boolean;
  command?: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute; defaults to the config file's folder so relative paths in `args` mean the same from anywhere. */
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  /** Per tool call, without news from the server (progress notifications restart it). */
  timeoutMs: number;
  /** The most one call may take, progress or not: a server that reports progress forever is stopped. */
  maxCallMs: number;
  /** Connect plus initialize. */
  startupTimeoutMs: number;
  disabled: boolean;
  trust: boolean;
  includeTools: string[];
  excludeTools: string[];
  tiers: Record<string, Tier>;
  /** The entry's `"alwaysLoad"`: offered in every request even when tools are selected (`true`: all its tools; a list: those). */
  alwaysLoad?: true | string[];
  /**
   * The entry's `"roots"`: whether the server is offered mcpterm's roots. Unset: yes, unless it
   * was started with folders on its command line (see offersRoots).
   */
  roots?: boolean;
  /** The entry's `"allowInsecureHttp": true`: it may send headers or credentials over plain http to a host off this machine. */
  allowInsecureHttp?: true;
  /** The entry's `"oauth"`, for remote servers; unset means sign in as the MCP spec says on a 401. */
  oauth?: ServerOAuth;
  /** The entry's `"protocol"` (or `--protocol`); unset means `auto`. */
  protocol?: ProtocolSetting;
  /**
   * For remote servers: each `${VAR}` of the user's environment written in the entry's URL,
   * headers or oauth, with the key it is written in (`headers.Authorization`, `oauth.idToken`):
   * values the entry sends off this machine, which the trust question names.
   */
  fromEnvironment?: EnvironmentValue[];
  /** Values from the environment its URL carries in its requests (a `?key=${MAPS_KEY}`): redacted wherever they appear. */
  urlSecrets?: string[];
  /**
   * What it runs or reaches as its file writes it, each `${VAR}` left as written (JSON of its
   * transport, command, args, cwd, env and URL): what serverLaunchHash reads, so a token the
   * environment rotates is the same launch and a changed file is not. Unset for a server typed
   * on the command line, which is hashed as it runs.
   */
  launchAsWritten?: string;
  /** Set when this server cannot start as configured (e.g. "${TOKEN} is not set"); the other servers still load. */
  problem?: string;
  /** Its Authorization header is its URL's user name and password, sent as Basic (url-credentials.ts). */
  authorizationFromUrl?: true;
}

/** A value from the user's environment that an entry uses: the variable and the entry's key it is in. */
export interface EnvironmentValue {
  variable: string;
  key: string;
}

/** `kb.embeddings`: an OpenAI-compatible /v1/embeddings endpoint for hybrid retrieval. */
export interface EmbeddingsConfig {
  model: string;
  /** As written, e.g. http://localhost:11434/v1; "/embeddings" is appended. */
  baseUrl: string;
}

export interface McptermConfig {
  /** Absolute path of the file loaded; undefined when no file existed. */
  path: string | undefined;
  /** In file order, disabled ones included (the manager skips them). */
  servers: ServerConfig[];
  /** `auto`: tiers that run unasked; `fromFile`: whether the file set them (else they are mcpterm's default). */
  approval: { auto: Tier[]; fromFile: boolean };
  kb: { enabled: boolean; dir: string | undefined; topK: number; embeddings?: EmbeddingsConfig };
  /** The two timeouts are silences in a model's stream, in milliseconds; see ModelSettings. */
  model: {
    name?: string;
    baseUrl?: string;
    idleTimeoutMs?: number;
    firstTokenTimeoutMs?: number;
    contextWindow?: number;
    temperature?: number;
    maxTokens?: number;
    pricing?: ModelPricing;
  };
  /** `confirmedInferred`: answers that used tools or knowledge end with what is confirmed and what is inferred. */
  answers: { confirmedInferred: boolean };
  /** `tools.search`: when each request offers only the tools that matter to it (see tool-search). */
  tools: { search: ToolSearchSettings };
  /** What loaded but deserves a word, one sentence each (a key mcpterm ignores): shown, never fatal. */
  warnings: string[];
}

/** What the model costs, per million tokens, for /stats (`model.pricing`); `currency` is only a label. */
export interface ModelPricing {
  inputPerMillion: number;
  outputPerMillion: number;
  /** Prompt tokens the server took from its cache; billed as input when unset. */
  cachedInputPerMillion?: number;
  currency: string;
}

export const DEFAULT_CONFIG_FILE = "mcp.config.json";
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_CALL_MS = 600_000;
export const DEFAULT_AUTO_APPROVED_TIERS: readonly Tier[] = ["read_only", "low_risk"];
export const DEFAULT_KB_TOP_K = 4;

export function emptyConfig(): McptermConfig {
  return {
    path: undefined,
    servers: [],
    approval: { auto: [...DEFAULT_AUTO_APPROVED_TIERS], fromFile: false },
    kb: { enabled: true, dir: undefined, topK: DEFAULT_KB_TOP_K },
    model: {},
    answers: { confirmedInferred: true },
    tools: { search: { ...DEFAULT_TOOL_SEARCH } },
    warnings: [],
  };
}
