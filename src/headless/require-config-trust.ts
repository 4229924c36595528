import { launchHash, launchLine, processServers } from "../core/config/config-trust.js";
import type { McptermConfig } from "../core/config/index.js";
import type { UserSettings } from "../core/config/user-settings.js";
import { ConfigError } from "../core/errors.js";

/**
 * One-shot mode starts a project's stdio servers only when the person said so: with
 * --trust-config, or by having trusted this exact set of command lines before (in the TUI).
 * A cloned repository must not be able to run programs just because mcpterm was started in it.
 */
export function requireConfigTrust(config: McptermConfig, settings: UserSettings, trustFlag: boolean): void {
  const servers = processServers(config);
  if (trustFlag || !config.path || servers.length === 0) return;
  if (settings.isConfigTrusted(config.path, launchHash(config))) return;
  const lines = servers.map(launchLine).join("; ");
  throw new ConfigError(
    `${config.path} would start ${servers.length} local server${servers.length === 1 ? "" : "s"} (${lines}); ` +
      "check the commands and rerun with --trust-config to allow it.",
  );
}
