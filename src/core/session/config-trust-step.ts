import {
  launchHash,
  serversNeedingTrust,
  trustEntry,
  untrustedConfigMessage,
  type TrustEntry,
} from "../config/config-trust.js";
import type { McptermConfig } from "../config/index.js";
import type { UserSettings } from "../config/user-settings.js";
import { ConfigError } from "../errors.js";

/** What a person is asked to trust: the config file and one entry per server it would start or contact. */
export interface TrustQuestion {
  configPath: string;
  entries: TrustEntry[];
}

/**
 * Decides whether this run may start or contact the project config's servers. A cloned
 * repository must not be able to run programs, or send environment secrets in headers to a URL
 * of its choosing, just because mcpterm was started in it. Trusted: with --trust-config, when
 * there is nothing to trust, or when the person trusted this exact config before. Otherwise the
 * person is asked (and a yes remembered); with nobody to ask it is a ConfigError naming each line.
 */
export async function settleConfigTrust(
  config: McptermConfig,
  settings: UserSettings,
  options: { flag: boolean; ask?: (question: TrustQuestion) => Promise<boolean> },
): Promise<boolean> {
  const servers = serversNeedingTrust(config);
  if (options.flag || !config.path || servers.length === 0) return true;
  const hash = launchHash(config);
  if (settings.isConfigTrusted(config.path, hash)) return true;
  const entries = servers.map(trustEntry);
  if (!options.ask) throw new ConfigError(untrustedConfigMessage(config.path, entries));
  const trusted = await options.ask({ configPath: config.path, entries });
  if (trusted) settings.trustConfig(config.path, hash);
  return trusted;
}
