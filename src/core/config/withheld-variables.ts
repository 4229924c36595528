import { serverEnvironment } from "./server-environment.js";

/** An environment variable's name as error messages write it: `GITHUB_TOKEN`, `API_KEY`. */
const VARIABLE_NAME = /\b[A-Z][A-Z0-9_]{2,}\b/g;

/**
 * The variables `text` (a failed server's error and stderr) names that are set for mcpterm but
 * were not given to the server: a server inherits only a few (server-environment.ts), so one
 * that says `GITHUB_TOKEN is not set` while the person's shell has it set is missing its entry's
 * `env`. Names only, never values.
 */
export function withheldVariables(
  text: string,
  parentEnv: NodeJS.ProcessEnv,
  configured: Record<string, string>,
): string[] {
  const given = serverEnvironment(parentEnv, configured);
  const named = new Set(text.match(VARIABLE_NAME) ?? []);
  return [...named].filter((name) => !!parentEnv[name] && !(name in given));
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
    ? `start it as -- env ${names.map((name) => `${name}="$${name}"`).join(" ")} <command>`
    : `add "env": { ${names.map((name) => `"${name}": "\${${name}}"`).join(", ")} } to mcpServers.${server.name}`;
  return ` (${which} ${verb} set in your environment, but a server gets only the variables its entry names: ${fix})`;
}
