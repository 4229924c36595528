import { launchHash, serversNeedingTrust, trustLine } from "../core/config/config-trust.js";
import type { McptermConfig } from "../core/config/index.js";
import type { UserSettings } from "../core/config/user-settings.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { readLineFromTerminal, type CliIo } from "../common/cli-io.js";

/**
 * Asks once, before the TUI draws, whether the project's config may start or contact its
 * servers, showing each exact command line or URL. A yes is remembered for this file and these command lines;
 * a no starts none of them this time. Only a typed "y" counts: Enter alone means no.
 */
export async function confirmConfigTrust(
  config: McptermConfig,
  settings: UserSettings,
  io: CliIo,
  trustFlag: boolean,
): Promise<boolean> {
  const servers = serversNeedingTrust(config);
  if (trustFlag || !config.path || servers.length === 0) return true;
  const hash = launchHash(config);
  if (settings.isConfigTrusted(config.path, hash)) return true;

  io.stderr.write(
    `${sanitizeForTerminal(config.path)} wants to start or connect to ${servers.length} server${servers.length === 1 ? "" : "s"}:\n` +
      servers.map((server) => `  ${sanitizeForTerminal(trustLine(server))}\n`).join(""),
  );
  io.stderr.write("Trust this config and start them? [y/N] ");
  const answer = await readLineFromTerminal(io.stdin, io.signal);
  const trusted = answer !== undefined && /^y(es)?$/i.test(answer.trim());
  if (trusted) settings.trustConfig(config.path, hash);
  return trusted;
}
