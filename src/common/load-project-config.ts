import { adHocConfig } from "../core/config/ad-hoc-server.js";
import { loadConfig, withProtocol, type McptermConfig } from "../core/config/index.js";
import { sanitizeOneLine } from "../core/policy/sanitize-terminal.js";
import type { CommonArgs } from "../args/index.js";
import type { CliIo } from "./cli-io.js";

/**
 * The project's mcp.config.json: --config, else ./mcp.config.json (a missing default file is an
 * empty config). Its warnings (keys mcpterm ignores) go to stderr, as one-shot mode prints them.
 */
export async function loadProjectConfig(common: CommonArgs, io: CliIo): Promise<McptermConfig> {
  const config = await loadConfig({
    ...(common.config === undefined ? {} : { path: common.config }),
    explicit: common.config !== undefined,
    cwd: io.cwd,
    env: io.env,
  });
  for (const warning of config.warnings) io.stderr.write(`warning: ${sanitizeOneLine(warning)}\n`);
  return withProtocol(config, common.protocol);
}

/**
 * The config a command that starts servers runs with: the server typed after `--` or as
 * `--url` alone, with no file read (a broken or untrusted mcp.config.json in the folder does not
 * stand in the way of the server the person typed), else the project's.
 */
export async function loadCommandConfig(common: CommonArgs, io: CliIo): Promise<McptermConfig> {
  return common.target
    ? withProtocol(adHocConfig(common.target, io.cwd, io.env), common.protocol)
    : loadProjectConfig(common, io);
}
