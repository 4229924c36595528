import { launchHash, serversNeedingTrust, trustLine } from "../core/config/config-trust.js";
import type { McptermConfig } from "../core/config/index.js";
import type { UserSettings } from "../core/config/user-settings.js";
import { ConfigError } from "../core/errors.js";

/**
 * One-shot mode starts or contacts a project's servers only when the person said so: with
 * --trust-config, or by having trusted this exact config before (in the TUI). A cloned
 * repository must not be able to run programs, or send environment secrets in headers to a URL
 * of its choosing, just because mcpterm was started in it.
 */
export function requireConfigTrust(config: McptermConfig, settings: UserSettings, trustFlag: boolean): void {
  const servers = serversNeedingTrust(config);
  if (trustFlag || !config.path || servers.length === 0) return;
  if (settings.isConfigTrusted(config.path, launchHash(config))) return;
  const lines = servers.map(trustLine).join("; ");
  throw new ConfigError(
    `${config.path} would start or connect to ${servers.length} server${servers.length === 1 ? "" : "s"} (${lines}); ` +
      "check them and rerun with --trust-config to allow it.",
  );
}
