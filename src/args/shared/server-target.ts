import type { Argv } from "yargs";
import { launchName, launchProblem, type NamedLaunch } from "../../core/config/ad-hoc-server.js";
import { splitCommandLine } from "../../core/config/command-line.js";
import type { ServerOverride } from "./cli-args.js";

/** The flags a server typed on the command line is read from (with --config, to refuse both). */
export interface TypedServerFlags {
  url?: string | undefined;
  header?: Array<string | number> | undefined;
  config?: string | undefined;
}

/** The mistake of a server given both ways: by its config name and typed after -- or --url. */
export const TYPED_AND_NAMED =
  "give the server either by its name in the config or after -- (or --url), not both; with a typed server, leave its name out";

/** `--url`: the commands that start servers also take one typed on the command line. */
export function launchOptions<T>(command: Argv<T>) {
  return command
    .option("url", {
      type: "string",
      describe: "a remote server's address to use instead of the config's (or: -- <command> [args…])",
    })
    .option("header", {
      type: "string",
      array: true,
      describe:
        'with --url: a header to send, "Name: value"; ${VAR} is read from the environment (repeatable)',
    });
}

/**
 * The server typed after `--` (a command line, word for word) or as `--url`, with the name it
 * goes by; undefined when neither was given. Either one replaces the config, so --config with
 * it is a mistake to name.
 */
export function typedServer(
  launchWords: readonly string[] | undefined,
  parsed: TypedServerFlags,
): NamedLaunch | undefined {
  if (launchWords !== undefined && parsed.url !== undefined)
    throw new Error("give the server either after -- or as --url, not both");
  if (parsed.header !== undefined && parsed.url === undefined)
    throw new Error("--header goes with --url: it names a header sent to the server given there");
  const [command, ...args] = launchWords ?? [];
  const launch =
    launchWords !== undefined
      ? { command: command ?? "", args }
      : parsed.url !== undefined
        ? { url: parsed.url, headers: headerValues(parsed.header ?? []) }
        : undefined;
  if (!launch) return undefined;
  const problem = launchProblem(launch);
  if (problem !== undefined) throw new Error(problem);
  if (parsed.config !== undefined)
    throw new Error("--config names the servers to start; with a server after -- or --url, leave it out");
  return { ...launch, name: launchName(launch) };
}

/** `--header "Name: value"`, each given once. */
function headerValues(given: ReadonlyArray<string | number>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const text of given.map(String)) {
    const colon = text.indexOf(":");
    const name = text.slice(0, Math.max(0, colon)).trim();
    if (colon <= 0 || !/^[!#$%&'*+.^_`|~\w-]+$/.test(name))
      throw new Error(`--header needs "Name: value", e.g. --header "Authorization: Bearer \${TOKEN}"`);
    if (Object.keys(headers).some((known) => known.toLowerCase() === name.toLowerCase()))
      throw new Error(`--header ${name} was given twice; give it once`);
    headers[name] = text.slice(colon + 1).trim();
  }
  return headers;
}

/** The one server a command runs: named, or typed after -- or as --url. */
export function oneServer(
  command: string,
  named: string | undefined,
  typed: NamedLaunch | undefined,
): string {
  if (typed && named !== undefined) throw new Error(TYPED_AND_NAMED);
  const server = typed?.name ?? named;
  if (server === undefined)
    throw new Error(
      `mcpterm ${command} needs a server: its name in the config, or its command after -- (mcpterm ${command} -- node build/server.js), or --url <url>`,
    );
  return server;
}

/**
 * --trust-config on a command that starts the config's servers outside a session (`tools`,
 * `call`, `read`, `resources`, `prompts`, `doctor`, `dev`, `replay`, `auth login`): a project's
 * config starts its programs and contacts its URLs (with any value of the user's environment it
 * names) only with the person's yes at a terminal, a yes given before, or this flag.
 */
export function withTrustConfig<T>(command: Argv<T>) {
  return command.option("trust-config", {
    type: "boolean",
    default: false,
    describe:
      "trust the project's mcp.config.json: start its servers, and send the values from your environment it names (${VAR}), unasked",
  });
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
