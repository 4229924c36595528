import path from "node:path";
import {
  DEFAULT_MAX_CALL_MS,
  DEFAULT_STARTUP_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  emptyConfig,
  type McptermConfig,
  type ServerConfig,
} from "./config-types.js";
import { expandEnv } from "./expand-env.js";
import { isHttpUrl } from "./http-url.js";
import { clearTextSecrets } from "./plain-http.js";
import { moveUrlCredentials } from "./url-credentials.js";

/**
 * A server typed on the command line rather than taken from mcp.config.json: a command and its
 * arguments (`-- node build/server.js`), or a remote server's URL (`--url http://…/mcp`).
 */
export type LaunchSpec =
  | { command: string; args: string[] }
  /** `headers` as typed (`--header "Authorization: Bearer ${TOKEN}"`), `${VAR}` not yet expanded. */
  | { url: string; headers?: Record<string, string> };

/** A launch with the name it goes by in messages, traces and `--server name=…`. */
export type NamedLaunch = LaunchSpec & { name: string };

/** Programs that run the server's code rather than being it: the server is named after its script. */
const RUNNERS = new Set([
  "node",
  "nodejs",
  "bun",
  "bunx",
  "deno",
  "npx",
  "pnpm",
  "pnpx",
  "yarn",
  "tsx",
  "ts-node",
  "python",
  "python3",
  "py",
  "uv",
  "uvx",
  "pipx",
  "poetry",
  "ruby",
  "php",
  "java",
  "go",
  "dotnet",
  "cargo",
  "docker",
  "podman",
  "sh",
  "bash",
]);
/** Words of a runner's command line that are not the server: `uv run`, `npm exec`, `go run`. */
const RUNNER_WORDS = new Set(["run", "exec", "dlx", "x", "tool", "start", "-m", "-jar", "--"]);
/** Interpreters given code on their command line (`node -e "…"`, `python -c "…"`), by that flag. */
const INTERPRETER = /^(?:node|nodejs|bun|deno|tsx|ts-node|ruby|php|sh|bash|py|python[\d.]*)$/i;
const INLINE_CODE = new Set(["-e", "--eval", "-p", "--print", "-c", "-r"]);
const SCRIPT_EXTENSION = /\.(?:[cm]?[jt]s|py|rb|php|jar|dll|exe|sh)$/i;

/**
 * The name a server typed on the command line goes by: its script's or package's name
 * (`node build/notes.js` → `notes`, `npx -y @acme/notes-mcp@1.2` → `notes-mcp`,
 * `python -m notes_server` → `notes_server`), the program's for a server that is its own
 * program, the host and port for a URL.
 */
export function launchName(launch: LaunchSpec): string {
  if ("url" in launch) {
    try {
      return new URL(launch.url).host || "remote";
    } catch {
      return "remote";
    }
  }
  const program = path.basename(launch.command).replace(/\.exe$/i, "");
  // `env KEY=value node server.js` (how a typed server gets variables beyond those every server
  // inherits) is named after the command env runs.
  if (program === "env") {
    const start = launch.args.findIndex((arg) => !arg.startsWith("-") && !arg.includes("="));
    const [command, ...args] = start === -1 ? [] : launch.args.slice(start);
    if (command !== undefined) return launchName({ command, args });
  }
  const runner = RUNNERS.has(program.toLowerCase()) || /^python\d/.test(program);
  // `node -e "…"`, `python -c "…"`: the word after is code, not a script to be named after.
  const inline = INTERPRETER.test(program) && launch.args.some((arg) => INLINE_CODE.has(arg));
  const script =
    runner && !inline
      ? launch.args.find((arg) => !arg.startsWith("-") && !RUNNER_WORDS.has(arg) && !arg.includes("="))
      : undefined;
  const word = script ?? program;
  const base = word
    .replace(/[\\/]+$/, "")
    .split(/[\\/]/)
    .pop()
    ?.replace(/(?<=.)@[^@]*$/, "")
    .replace(/:[^:]*$/, "")
    .replace(SCRIPT_EXTENSION, "");
  const name = (base ?? "").replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, "");
  return name === "" ? "server" : name;
}

/** What is wrong with a typed launch, in one sentence, or undefined when it can be started. */
export function launchProblem(launch: LaunchSpec): string | undefined {
  if ("url" in launch) {
    if (!isHttpUrl(launch.url)) return `--url needs an http(s) address, got "${launch.url}"`;
    // As for a config entry: no header goes in clear text to a host off this machine.
    const exposed = clearTextSecrets({ url: launch.url, rawUrl: launch.url, headers: launch.headers ?? {} });
    if (exposed)
      return `--url ${launch.url} is plain http to ${exposed.host}, which would send ${exposed.secrets} unencrypted; use https`;
    return undefined;
  }
  return launch.command.trim() === "" ? "-- needs the command that starts the server" : undefined;
}

/** A server entry with mcpterm's defaults, as a config with nothing but its name would give. */
export function defaultServerConfig(name: string): ServerConfig {
  return {
    name,
    transport: "stdio",
    args: [],
    env: {},
    headers: {},
    timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    maxCallMs: DEFAULT_MAX_CALL_MS,
    startupTimeoutMs: DEFAULT_STARTUP_TIMEOUT_MS,
    disabled: false,
    trust: false,
    includeTools: [],
    excludeTools: [],
    tiers: {},
  };
}

/**
 * How a typed launch runs: a command in the folder it was typed in, with only the environment
 * every server inherits; a URL with the headers typed beside it, `${VAR}` taken from `env`, and
 * none of the config's (its tokens belong to its own entries).
 */
export function launchFields(
  launch: LaunchSpec,
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Partial<ServerConfig> {
  if ("url" in launch) {
    const missing: string[] = [];
    const headers = Object.fromEntries(
      Object.entries(launch.headers ?? {}).map(([name, value]) => {
        const expanded = expandEnv(value, env);
        missing.push(...expanded.missing);
        return [name, expanded.value];
      }),
    );
    const moved = moveUrlCredentials(launch.url, headers);
    const problem =
      missing.length > 0
        ? `--header needs ${missing.map((name) => `$${name}`).join(", ")}, which is not set`
        : "problem" in moved
          ? "--url holds a user name and password, and --header gives an Authorization header too; keep one of the two"
          : undefined;
    return {
      transport: "http",
      ...("problem" in moved ? { url: launch.url, headers } : moved),
      command: undefined,
      args: [],
      ...(problem === undefined ? {} : { problem }),
    };
  }
  return { transport: "stdio", command: launch.command, args: launch.args, cwd, url: undefined };
}

/**
 * The config of a command run against one typed server, no file read: the person typed the
 * command, which is the request to run it (as naming a configured server is for `mcpterm call`).
 */
export function adHocConfig(launch: NamedLaunch, cwd: string, env: NodeJS.ProcessEnv = {}): McptermConfig {
  return {
    ...emptyConfig(),
    servers: [{ ...defaultServerConfig(launch.name), ...launchFields(launch, cwd, env), typed: true }],
  };
}
