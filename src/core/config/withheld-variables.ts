import { serverEnvironment } from "./server-environment.js";

/** An environment variable's name as error messages write it: `GITHUB_TOKEN`, `API_KEY`. */
const VARIABLE_NAME = /\b[A-Z][A-Z0-9_]{2,}\b/g;

/** What a line says of a variable it names when the variable is missing (not a log tag like `[DEBUG]`). */
const SAYS_MISSING =
  /\b(?:not set|not defined|undefined|unset|missing|required|must be set|is empty|no value|not found in (?:the )?environment|environment variable|env var)/i;

/**
 * The variables `text` (a failed server's error and stderr) says are missing that are set for
 * mcpterm but were not given to the server: a server inherits only a few (server-environment.ts),
 * so one that says `GITHUB_TOKEN is not set` while the person's shell has it set is missing its
 * entry's `env`. `launch`: a typed command line, whose `env NAME=value` prefix gives the server
 * NAME too. Names compare regardless of case, as Windows spells them. Names only, never values.
 */
export function withheldVariables(
  text: string,
  parentEnv: NodeJS.ProcessEnv,
  configured: Record<string, string>,
  launch?: { command?: string | undefined; args: readonly string[] },
): string[] {
  const given = new Set(
    [...Object.keys(serverEnvironment(parentEnv, configured)), ...envPrefixNames(launch)].map((name) =>
      name.toUpperCase(),
    ),
  );
  const named = new Set<string>();
  for (const line of text.split("\n"))
    if (SAYS_MISSING.test(line)) for (const name of line.match(VARIABLE_NAME) ?? []) named.add(name);
  return [...named].filter((name) => !!parentEnv[name] && !given.has(name.toUpperCase()));
}

/** The names an `env NAME=value … program` command line sets. */
function envPrefixNames(
  launch: { command?: string | undefined; args: readonly string[] } | undefined,
): string[] {
  if (!launch?.command || !/(?:^|[\\/])env$/.test(launch.command)) return [];
  const names: string[] = [];
  for (const arg of launch.args) {
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(arg);
    if (assignment?.[1]) names.push(assignment[1]);
    else if (!arg.startsWith("-")) break;
  }
  return names;
}

/** The hint for a failure sentence, or "" when nothing it names was withheld. */
export function withheldVariablesHint(
  names: readonly string[],
  server: { name: string; typed?: boolean | undefined },
): string {
  if (names.length === 0) return "";
  const which = names.join(", ");
  const verb = names.length === 1 ? "is" : "are";
  const fix = server.typed
    ? `start it as -- env ${names.map((name) => `${name}="\${${name}}"`).join(" ")} <command>`
    : `add "env": { ${names.map((name) => `"${name}": "\${${name}}"`).join(", ")} } to mcpServers.${server.name}`;
  return ` (${which} ${verb} set in your environment, but a server gets only the variables its entry names: ${fix})`;
}
