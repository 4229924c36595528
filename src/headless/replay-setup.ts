import { readRegularFile } from "../core/files/regular-file.js";
import path from "node:path";
import type { ReplayFlags, ServerOverride } from "../args/index.js";
import type { CliIo } from "../common/cli-io.js";
import { defaultServerConfig, launchFields } from "../core/config/ad-hoc-server.js";
import type { McptermConfig, ServerConfig } from "../core/config/index.js";
import { UsageError } from "../core/errors.js";
import { parseIgnoreRule, type IgnoreRule } from "../core/replay/ignore-rules.js";

/**
 * `--ignore` paths and those of `--ignore-file` (one a line, `#` starts a comment), parsed; a
 * path may be scoped to one tool or prompt (`get_page:$.etag`).
 */
export async function loadIgnorePaths(
  flags: Pick<ReplayFlags, "ignore" | "ignoreFile">,
  io: CliIo,
): Promise<IgnoreRule[]> {
  const paths: IgnoreRule[] = [];
  for (const text of flags.ignore) {
    const parsed = parseIgnoreRule(text);
    if (typeof parsed === "string") throw new UsageError(`--ignore ${parsed}`);
    paths.push(parsed);
  }
  if (flags.ignoreFile === undefined) return paths;
  const file = path.resolve(io.cwd, flags.ignoreFile);
  const text = await readRegularFile(file, "utf8").catch((error: unknown) => {
    throw new UsageError(`Cannot read the ignore file ${file}: ${(error as Error).message}.`, {
      cause: error,
    });
  });
  for (const [index, line] of text.split("\n").entries()) {
    const entry = line.replace(/(^|\s)#.*$/, "").trim();
    if (entry === "") continue;
    const parsed = parseIgnoreRule(entry);
    if (typeof parsed === "string") throw new UsageError(`${file}, line ${index + 1}: ${parsed}`);
    paths.push(parsed);
  }
  return paths;
}

/**
 * The servers a replay needs, each from the config or from `--server`. Nothing is started that
 * neither names: a trace is input, and the servers it calls must already be the person's own.
 */
export function replayServers(
  config: McptermConfig,
  needed: readonly string[],
  overrides: readonly ServerOverride[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): ServerConfig[] {
  for (const override of overrides) {
    if (!needed.includes(override.name))
      throw new UsageError(
        `--server ${override.name}: the recording makes no calls to a server of that name (it calls ${needed.map((name) => JSON.stringify(name)).join(", ")}).`,
      );
  }
  return needed.map((name) => {
    const configured = config.servers.find((server) => server.name === name);
    const override = overrides.find((candidate) => candidate.name === name);
    if (override)
      return {
        ...(configured ?? defaultServerConfig(name)),
        ...launchFields(override, cwd, env),
        disabled: false,
      };
    if (!configured) {
      const known = config.servers.map((server) => server.name).join(", ") || "none";
      // Quoted as JSON: a name from a trace may hold escapes, which then show rather than act.
      const quoted = JSON.stringify(name);
      throw new UsageError(
        config.path === undefined
          ? `The recording calls server ${quoted}, and this folder has no mcp.config.json; run mcpterm replay from the project's folder, name its config with --config, or give --server ${quoted}=<command or url>.`
          : `The recording calls server ${quoted}, which ${config.path} does not have (servers: ${known}); add it there, or give --server ${quoted}=<command or url>.`,
      );
    }
    // Naming the recording is the request to run its servers, as naming one is for `mcpterm call`.
    return { ...configured, disabled: false };
  });
}
